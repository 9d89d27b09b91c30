/**
 * NUL and lone UTF-16 surrogates: PostgreSQL refuses both in text and jsonb (a 500 half-way through a
 * command), nobody types them, and a lone surrogate cannot even be encoded as UTF-8. Every string of
 * every request is checked once, by the route layer, so no field of any route can forget it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this refuses
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSAFE_TEXT_MESSAGE = 'contains characters that are not allowed';

export const hasUnsafeCharacters = (text: string): boolean => UNSAFE.test(text);

/** The path of every string (or object key) within `value` that holds an unsafe character. */
export function unsafeTextPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return hasUnsafeCharacters(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => unsafeTextPaths(item, [...path, i]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      hasUnsafeCharacters(key) ? [[...path, key]] : unsafeTextPaths(item, [...path, key]),
    );
  }
  return [];
}
