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

import {
  commandFromUrlPath,
  NONCE_PATTERN,
  normaliseCommand,
  SIGNATURE_PATTERN,
  SIGNATURE_WINDOW_MS,
  signatureKey,
  signatureMessage,
  TIMESTAMP_PATTERN,
} from '../../../../src-shared/contracts/signing.js';

// The canonicalisation is shared with the console (src-shared/contracts/signing.ts); the HMAC is ours.
export { NONCE_PATTERN, normaliseCommand, SIGNATURE_PATTERN, SIGNATURE_WINDOW_MS, signatureMessage, TIMESTAMP_PATTERN };

/**
 * The command of a full request URL (`/<org>/v2/...`, as Fastify's `request.url` has it).
 * Throws when the URL is not under an org's `/v2`.
 */
export function commandFromUrl(url: string): string {
  const command = commandFromUrlPath(url);
  if (command === null) throw new Error(`not a /<org>/v2 URL: ${(url.split(/[?#]/, 1)[0] ?? '').slice(0, 80)}`);
  return command;
}

/** Lowercase hex HMAC-SHA256 of the message under `apiKey + apiSecret`. */
export function computeSignature(apiKey: string, apiSecret: string, message: string): string {
  return createHmac('sha256', signatureKey(apiKey, apiSecret)).update(message, 'utf8').digest('hex');
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
