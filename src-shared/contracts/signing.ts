/**
 * The request-signature canonicalisation of docs/signing.md, shared by the service (which verifies)
 * and the console (which signs), so both build the signed message from the same code:
 *
 *   command   = "/" + the path relative to /<org>/v2, query excluded, runs of "/" collapsed,
 *               leading and trailing "/" removed          (/demo/v2/accounts/me/ → /accounts/me)
 *   message   = command + ";" + METHOD + ";" + timestampMs
 *   signature = lowercase hex HMAC-SHA256(key = apiKey + apiSecret, message)
 *
 * Version 2 (docs/signing.md, chosen with `Service-Client-Signature-Version: 2`) signs more:
 *
 *   message   = command + ";" + METHOD + ";" + timestampMs + ";" + nonce + ";" + canonical query
 *               + ";" + lowercase hex SHA-256 of the body bytes as sent (of no bytes when there is none)
 *
 * so a captured request can be replayed neither with a fresh nonce nor with another query or body.
 * The canonical query is defined by `canonicalQuery` below.
 *
 * The HMAC and SHA-256 stay with each side (node:crypto in the service, WebCrypto in the console):
 * this module is pure. Test vectors for both versions: signing-vectors.json beside this file.
 */

/** How far a signed request's timestamp may be from the server's clock, either way. */
export const SIGNATURE_WINDOW_MS = 15 * 60_000;

export const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/i;
export const NONCE_PATTERN = /^[a-z0-9]{16}$/i;
/** Unix milliseconds as decimal digits; 16 digits reach far beyond year 2100 and stay safe integers. */
export const TIMESTAMP_PATTERN = /^[0-9]{1,16}$/;

/** Normalises a path relative to `/<org>/v2` into the signed command. */
export function normaliseCommand(relativePath: string): string {
  const path = relativePath.split(/[?#]/, 1)[0] ?? '';
  return '/' + path.split('/').filter(Boolean).join('/');
}

const SLASH = 0x2f;

/**
 * The command of a request path as sent (`/<org>/v2/...`, query allowed); null when the path is
 * not under an org's `/v2`.
 */
export function commandFromUrlPath(urlPath: string): string | null {
  const path = urlPath.slice(0, pathEnd(urlPath));
  // The usual path (`/<org>/v2/…`, no empty segment) is answered by slicing: the service computes
  // this for every signed request, and the split below allocates an array and a string per segment.
  const orgEnd = path.indexOf('/', 1);
  if (
    path.charCodeAt(0) === SLASH &&
    orgEnd > 1 &&
    !path.includes('//') &&
    path.charCodeAt(path.length - 1) !== SLASH
  ) {
    const afterVersion = orgEnd + 3;
    if (!path.startsWith('/v2', orgEnd)) return null;
    if (afterVersion === path.length) return '/';
    return path.charCodeAt(afterVersion) === SLASH ? path.slice(afterVersion) : null;
  }
  const segments = path.split('/').filter(Boolean);
  if (segments.length < 2 || segments[1] !== 'v2') return null;
  // Non-empty segments of a path without `?` or `#`: already what normaliseCommand would give
  // (the service computes this for every signed request, so it is not computed twice).
  return '/' + segments.slice(2).join('/');
}

/** Where a URL's path ends: at its first `?` or `#`, else at its end. */
function pathEnd(url: string): number {
  const query = url.indexOf('?');
  const fragment = url.indexOf('#');
  if (query < 0) return fragment < 0 ? url.length : fragment;
  return fragment < 0 ? query : Math.min(query, fragment);
}

export function signatureMessage(command: string, method: string, timestampMs: number): string {
  return `${command};${method.toUpperCase()};${timestampMs}`;
}

/** The HMAC key: the app key and its secret concatenated. */
export function signatureKey(apiKey: string, apiSecret: string): string {
  return apiKey + apiSecret;
}

export type SignatureVersion = 1 | 2;

/** SHA-256 of zero bytes: the body digest of a request without a body. */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** RFC 3986 percent-encoding: everything but the unreserved set A-Z a-z 0-9 - . _ ~ as UTF-8 %XX. */
export function rfc3986Encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/**
 * The canonical form of a URL's query string (the part after the first `?`, up to any `#`):
 *
 *   1. split on `&`, dropping empty pieces;
 *   2. split each piece at its first `=` into name and value (no `=`: the value is empty);
 *   3. decode each: `+` is a space, then %XX sequences as UTF-8 (as every form parser does);
 *   4. re-encode each with RFC 3986 (`rfc3986Encode`: unreserved characters bare, all else %XX
 *      with upper-case hex);
 *   5. sort the pairs by encoded name, then by encoded value (plain code-unit order: the encoded
 *      text is ASCII, so this is byte order);
 *   6. join as `name=value` with `&`. No query at all, or only empty pieces, gives "".
 *
 * So `?b=2&a=x%20y&a=1` and `?a=1&b=2&a=x+y` are both `a=1&a=x%20y&b=2`. Returns null when a
 * piece is not valid percent-encoded UTF-8 (such a request cannot be signed with version 2).
 */
export function canonicalQuery(url: string): string | null {
  const withoutFragment = url.split('#', 1)[0] ?? '';
  const at = withoutFragment.indexOf('?');
  if (at < 0) return '';
  const pairs: [string, string][] = [];
  for (const piece of withoutFragment.slice(at + 1).split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const rawName = eq < 0 ? piece : piece.slice(0, eq);
    const rawValue = eq < 0 ? '' : piece.slice(eq + 1);
    try {
      pairs.push([
        rfc3986Encode(decodeURIComponent(rawName.replace(/\+/g, ' '))),
        rfc3986Encode(decodeURIComponent(rawValue.replace(/\+/g, ' '))),
      ]);
    } catch {
      return null;
    }
  }
  pairs.sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

export interface SignatureV2Parts {
  command: string;
  method: string;
  timestampMs: number;
  nonce: string;
  /** `canonicalQuery` of the URL as sent. */
  query: string;
  /** Lowercase hex SHA-256 of the body bytes as sent (`EMPTY_BODY_SHA256` without a body). */
  bodySha256: string;
}

export function signatureMessageV2(parts: SignatureV2Parts): string {
  return [
    parts.command,
    parts.method.toUpperCase(),
    String(parts.timestampMs),
    parts.nonce,
    parts.query,
    parts.bodySha256.toLowerCase(),
  ].join(';');
}

/** The version a request asks for from its header value; null when the value is not a version. */
export function parseSignatureVersion(header: string | undefined): SignatureVersion | null {
  if (header === undefined || header.trim() === '' || header.trim() === '1') return 1;
  if (header.trim() === '2') return 2;
  return null;
}
