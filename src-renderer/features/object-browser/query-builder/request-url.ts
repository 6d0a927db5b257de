/** The exact request the browser sends, shown to the user and offered as commands a person can run. */
import {
  ACCOUNT_HEADER,
  CLIENT_KEY_HEADER,
  NONCE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_VERSION_HEADER,
  TIMESTAMP_HEADER,
} from '../../../../src-shared/contracts/http';
import { canonicalQuery, commandFromUrlPath, EMPTY_BODY_SHA256 } from '../../../../src-shared/contracts/signing';
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
 * A curl command for the same request with an access token (`$TOKEN`, e.g. minted in the Token
 * lab). The console's own session cookie is HttpOnly, so a person cannot copy it into a shell.
 */
export function tokenCurlCommand(url: string, appKey: string): string {
  return (
    `curl -s -H ${shellQuote(`${CLIENT_KEY_HEADER}: ${appKey}`)} -H "Authorization: Bearer $TOKEN" ` + shellQuote(url)
  );
}

/**
 * A shell snippet that signs the same GET with signature version 2 (docs/signing.md) from an app's
 * `$API_KEY` and `$API_SECRET`, acting as `$ACCOUNT` when set. The signed command and canonical
 * query come from the shared canonicaliser, the very code the service verifies with; the shell
 * adds timestamp, nonce and the HMAC (openssl), so the command is fresh each time it runs.
 */
export function signedCurlScript(url: string): string | null {
  const parsed = new URL(url);
  const command = commandFromUrlPath(parsed.pathname);
  const query = canonicalQuery(url);
  if (command === null || query === null) return null;
  return [
    '# Signed (version 2): set API_KEY and API_SECRET of a signing app; ACCOUNT (optional) to act as.',
    // Whole seconds times 1000: `date +%s%3N` is GNU-only (macOS prints a literal "3N").
    'TS=$(($(date +%s) * 1000)); NONCE=$(openssl rand -hex 8)',
    `SIG=$(printf '%s;GET;%s;%s;%s;%s' ${shellQuote(command)} "$TS" "$NONCE" ${shellQuote(query)} ${EMPTY_BODY_SHA256} \\`,
    `  | openssl dgst -sha256 -hmac "$API_KEY$API_SECRET" -r | cut -d' ' -f1)`,
    `AS=(); [ -n "$ACCOUNT" ] && AS=(-H "${ACCOUNT_HEADER}: $ACCOUNT")`,
    `curl -s -H "${CLIENT_KEY_HEADER}: $API_KEY" -H '${SIGNATURE_VERSION_HEADER}: 2' -H "${TIMESTAMP_HEADER}: $TS" \\`,
    `  -H "${NONCE_HEADER}: $NONCE" -H "${SIGNATURE_HEADER}: $SIG" "\${AS[@]}" ${shellQuote(url)}`,
  ].join('\n');
}

/**
 * The same query as a script for the Scripts screen (`org.objects.<collection>.find()…`), which
 * runs it through the same access layer, parser and limits as the HTTP request.
 */
export function scriptCall(listUrl: string, collection: string): string {
  const body = driverBody(new URL(listUrl).searchParams);
  if (body.pipeline !== undefined) return aggregateScript(body, collection);
  let chain = `org.objects.${collection}.find(${JSON.stringify(body.where ?? {})})`;
  if (body.sort !== undefined) chain += `\n  .sort(${JSON.stringify(body.sort)})`;
  if (body.skip !== undefined && body.skip !== 0) chain += `\n  .skip(${String(body.skip)})`;
  if (body.limit !== undefined) chain += `\n  .limit(${String(body.limit)})`;
  if (body.paths !== undefined) chain += `\n  .paths(${JSON.stringify(body.paths)})`;
  return `return ${chain}\n  .toArray();\n`;
}

/** An aggregation as a script: `org.objects.<collection>.aggregate([…])`, the driver's pipeline. */
function aggregateScript(body: Record<string, unknown>, collection: string): string {
  let chain = `org.objects.${collection}.aggregate(${JSON.stringify(body.pipeline, null, 2)})`;
  if (body.limit !== undefined) chain += `\n  .limit(${String(body.limit)})`;
  return `return ${chain}\n  .toArray();\n`;
}

/**
 * The page's list request as a driver call (`POST …/<collection>/db/cursor`, docs/compatibility.md
 * §A) with where, sort, skip, limit and paths as a JSON body, read back from the list URL so the
 * two always describe the same request. A POST with a session needs the CSRF token: the command
 * takes it from `$CSRF` (the `Service-Csrf-Token` header of the curl login's answer).
 */
export function driverCallCommand(listUrl: string, appKey: string): string {
  const url = new URL(listUrl);
  const body = driverBody(url.searchParams);
  const target = `${url.origin}${url.pathname.replace(/\/+$/, '')}/db/cursor`;
  return (
    `curl -s -b cookies.txt -H ${shellQuote(`Service-Client-Key: ${appKey}`)} -H "Service-Csrf-Token: $CSRF" ` +
    `-H 'Content-Type: application/json' --data ${shellQuote(JSON.stringify(body))} ${shellQuote(target)}`
  );
}

/** where, sort, skip, limit, paths and pipeline of a list URL as the driver's JSON body. */
function driverBody(params: URLSearchParams): Record<string, unknown> {
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
  const pipeline = params.get('pipeline');
  if (pipeline !== null) body.pipeline = json(pipeline);
  const paths = params.getAll('paths[]');
  if (paths.length > 0) body.paths = paths;
  return body;
}
