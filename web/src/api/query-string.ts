type QueryValue = string | number | boolean | null | undefined;

/** `?a=1&b=x` from a route's query object; empty and missing values are left out, arrays repeat the key. */
export function toQueryString(query: unknown): string {
  if (query === null || typeof query !== 'object') return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, QueryValue | QueryValue[]>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null || item === '') continue;
      search.append(key, String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
