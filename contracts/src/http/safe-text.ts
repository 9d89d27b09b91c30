/**
 * NUL and lone UTF-16 surrogates: PostgreSQL refuses both in text and jsonb (a 500 half-way through a
 * command), nobody types them, and a lone surrogate cannot even be encoded as UTF-8. Every string of
 * every request is checked once, by the route layer, so no field of any route can forget it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this refuses
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSAFE_TEXT_MESSAGE = 'contains characters that are not allowed';

export const hasUnsafeCharacters = (text: string): boolean => UNSAFE.test(text);

interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
}

const pathOf = (visit: Visit): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let v: Visit | null = visit; v?.key != null; v = v.parent) path.push(v.key);
  return path.reverse();
};

/**
 * The path of every string (or object key) within `value` that holds an unsafe character, in document
 * order. The walk keeps its own stack and each step points at its parent (a path is spelt out only for
 * what is found), so no shape of input, 100,000 nested arrays say, can overflow the call stack or cost
 * more than one pass: a body is walked before any schema has looked at it.
 */
export function unsafeTextPaths(value: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  const stack: Visit[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const item = visit.value;
    if (typeof item === 'string') {
      if (hasUnsafeCharacters(item)) found.push(pathOf(visit));
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], key: i, parent: visit });
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        // An unsafe key is reported itself; what lies under it is not walked (it names no real field).
        stack.push({ value: hasUnsafeCharacters(key) ? '\u0000' : child, key, parent: visit });
      }
    }
  }
  return found;
}
