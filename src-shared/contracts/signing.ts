/**
 * The request-signature canonicalisation of decisions §4, shared by the service (which verifies)
 * and the console (which signs), so both build the signed message from the same code:
 *
 *   command   = "/" + the path relative to /<org>/v2, query excluded, runs of "/" collapsed,
 *               leading and trailing "/" removed          (/demo/v2/accounts/me/ → /accounts/me)
 *   message   = command + ";" + METHOD + ";" + timestampMs
 *   signature = lowercase hex HMAC-SHA256(key = apiKey + apiSecret, message)
 *
 * The HMAC itself stays with each side (node:crypto in the service, WebCrypto in the console):
 * this module is pure.
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

/**
 * The command of a request path as sent (`/<org>/v2/...`, query allowed); null when the path is
 * not under an org's `/v2`.
 */
export function commandFromUrlPath(urlPath: string): string | null {
  const path = urlPath.split(/[?#]/, 1)[0] ?? '';
  const segments = path.split('/').filter(Boolean);
  if (segments.length < 2 || segments[1] !== 'v2') return null;
  return normaliseCommand(segments.slice(2).join('/'));
}

export function signatureMessage(command: string, method: string, timestampMs: number): string {
  return `${command};${method.toUpperCase()};${timestampMs}`;
}

/** The HMAC key: the app key and its secret concatenated. */
export function signatureKey(apiKey: string, apiSecret: string): string {
  return apiKey + apiSecret;
}
