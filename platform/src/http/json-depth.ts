/**
 * The deepest nesting any request body of ours needs is 4 (`{ "merchant": { "notes": [ { … } ] } }`);
 * 32 leaves room for what a partner's serialiser adds and still refuses bodies built to exhaust a walk.
 */
export const MAX_JSON_DEPTH = 32;

export const JSON_TOO_DEEP_MESSAGE = `is nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Whether a JSON text opens more than `max` arrays or objects inside one another, read in one pass over
 * its characters (brackets inside strings, escaped quotes included, do not count) before it is parsed.
 * Invalid JSON is left to the parser to refuse.
 */
export function jsonDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
