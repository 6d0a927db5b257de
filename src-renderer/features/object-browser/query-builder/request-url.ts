/** The exact request the browser sends, shown to the user and offered as a curl command. */
import { listArgs, type ListRequest } from '../../../api/records';
import { buildQueryString } from '../../../api/query-string';

export function requestUrl(origin: string, org: string, collection: string, request: ListRequest): string {
  return `${origin}/${encodeURIComponent(org)}/v2/${encodeURIComponent(collection)}${buildQueryString(listArgs(request))}`;
}

/** Single-quoted for POSIX shells: `'` becomes `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command for the same request. The session cookie is HttpOnly (the page cannot read it),
 * so the command uses a cookie jar filled by a curl login, as the README shows.
 */
export function curlCommand(url: string, appKey: string): string {
  return `curl -s -b cookies.txt -H ${shellQuote(`Service-Client-Key: ${appKey}`)} ${shellQuote(url)}`;
}
