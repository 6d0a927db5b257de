import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The request-signature algorithm of decisions §4, with no I/O: the service verifies with it and
 * tests (and client authors) sign with it.
 *
 *   command   = "/" + the path relative to /<org>/v2, query excluded, runs of "/" collapsed,
 *               leading and trailing "/" removed          (/demo/v2/accounts/me/ → /accounts/me)
 *   message   = command + ";" + METHOD + ";" + timestampMs
 *   signature = lowercase hex HMAC-SHA256(key = apiKey + apiSecret, message)
 *
 * The path is taken exactly as sent on the request line (no percent-decoding), so the client signs
 * the bytes it sends.
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
 * The command of a full request URL (`/<org>/v2/...`, as Fastify's `request.url` has it).
 * Throws when the URL is not under an org's `/v2`.
 */
export function commandFromUrl(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const segments = path.split('/').filter(Boolean);
  if (segments.length < 2 || segments[1] !== 'v2') throw new Error(`not a /<org>/v2 URL: ${path.slice(0, 80)}`);
  return normaliseCommand(segments.slice(2).join('/'));
}

export function signatureMessage(command: string, method: string, timestampMs: number): string {
  return `${command};${method.toUpperCase()};${timestampMs}`;
}

/** Lowercase hex HMAC-SHA256 of the message under `apiKey + apiSecret`. */
export function computeSignature(apiKey: string, apiSecret: string, message: string): string {
  return createHmac('sha256', apiKey + apiSecret)
    .update(message, 'utf8')
    .digest('hex');
}

export interface SignInput {
  apiKey: string;
  apiSecret: string;
  /** Full request URL, `/<org>/v2/...` (query allowed; it is not signed). */
  url: string;
  method: string;
  timestampMs: number;
}

/** Signs a request the way a client must. */
export function signRequest(input: SignInput): string {
  return computeSignature(
    input.apiKey,
    input.apiSecret,
    signatureMessage(commandFromUrl(input.url), input.method, input.timestampMs),
  );
}

/**
 * Compares a presented signature with the expected one in constant time, on the decoded 32-byte
 * digests (so letter case does not matter and lengths leak nothing). `presented` must already match
 * SIGNATURE_PATTERN.
 */
export function signaturesMatch(expectedHex: string, presentedHex: string): boolean {
  const a = Buffer.from(expectedHex, 'hex');
  const b = Buffer.from(presentedHex, 'hex');
  return a.length === 32 && b.length === 32 && timingSafeEqual(a, b);
}
