/** A query-string value as the service reads it (docs/API.md#addressing-and-envelopes). */
export type QueryValue = string | number | boolean | readonly string[] | object | null | undefined;

/**
 * Builds `?a=1&where=%7B...%7D` for the service: objects (`where`, `sort`) become URL-encoded JSON,
 * arrays become repeated `key[]=v`, and undefined/null values are left out.
 */
export function buildQueryString(params: Readonly<Record<string, QueryValue>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly unknown[]) search.append(`${key}[]`, String(item));
    } else if (typeof value === 'object') {
      search.append(key, JSON.stringify(value));
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
