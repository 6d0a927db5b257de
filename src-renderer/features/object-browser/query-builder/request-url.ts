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

/**
 * The page's list request as a driver call (`POST …/<collection>/db/cursor`, original-clients.md
 * §A) with where, sort, skip, limit and paths as a JSON body, read back from the list URL so the
 * two always describe the same request. A POST with a session needs the CSRF token: the command
 * takes it from `$CSRF` (the `Service-Csrf-Token` header of the curl login's answer).
 */
export function driverCallCommand(listUrl: string, appKey: string): string {
  const url = new URL(listUrl);
  const params = url.searchParams;
  const body: Record<string, unknown> = {};
  const json = (text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text; // a bare sort name stays a string; the service parses it the same way
    }
  };
  const where = params.get('where');
  if (where !== null) body.where = json(where);
  const sort = params.get('sort');
  if (sort !== null) body.sort = json(sort);
  for (const name of ['skip', 'limit'] as const) {
    const value = params.get(name);
    if (value !== null && /^\d+$/.test(value)) body[name] = Number(value);
  }
  const paths = params.getAll('paths[]');
  if (paths.length > 0) body.paths = paths;
  const target = `${url.origin}${url.pathname.replace(/\/+$/, '')}/db/cursor`;
  return (
    `curl -s -b cookies.txt -H ${shellQuote(`Service-Client-Key: ${appKey}`)} -H "Service-Csrf-Token: $CSRF" ` +
    `-H 'Content-Type: application/json' --data ${shellQuote(JSON.stringify(body))} ${shellQuote(target)}`
  );
}
