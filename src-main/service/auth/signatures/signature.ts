import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The request-signature algorithm of docs/signing.md, with no I/O: the service verifies with it and
 * tests (and client authors) sign with it.
 *
 *   command   = "/" + the path relative to /<org>/v2, query excluded, runs of "/" collapsed,
 *               leading and trailing "/" removed          (/demo/v2/accounts/me/ → /accounts/me)
 *   message   = command + ";" + METHOD + ";" + timestampMs
 *   signature = lowercase hex HMAC-SHA256(key = apiKey + apiSecret, message)
 *
 * Version 2 appends `;nonce;canonical query;hex SHA-256 of the body` (src-shared/contracts/signing.ts).
 *
 * The path is taken exactly as sent on the request line (no percent-decoding), so the client signs
 * the bytes it sends.
 */

import {
  canonicalQuery,
  commandFromUrlPath,
  EMPTY_BODY_SHA256,
  signatureMessageV2,
  type SignatureVersion,
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
  // The service verifies with HmacSha256Key (crypto/hmac-sha256.ts); signing here stays on createHmac,
  // the reference that class is tested against.
  return createHmac('sha256', signatureKey(apiKey, apiSecret)).update(message, 'utf8').digest('hex');
}

/** Lowercase hex SHA-256 of the body bytes as sent; of no bytes when there is no body. */
export function bodySha256(body: Uint8Array | string | undefined): string {
  if (body === undefined || body.length === 0) return EMPTY_BODY_SHA256;
  return createHash('sha256').update(body).digest('hex');
}

/**
 * The message a request signs: version 1 (`command;METHOD;ts`) or version 2 (also nonce, canonical
 * query and body digest). Null when the URL's query cannot be canonicalised (version 2 only).
 */
export function messageFor(
  version: SignatureVersion,
  request: { url: string; method: string; timestampMs: number; nonce: string; body?: Uint8Array | string },
): string | null {
  const command = commandFromUrl(request.url);
  if (version === 1) return signatureMessage(command, request.method, request.timestampMs);
  const query = canonicalQuery(request.url);
  if (query === null) return null;
  return signatureMessageV2({
    command,
    method: request.method,
    timestampMs: request.timestampMs,
    nonce: request.nonce,
    query,
    bodySha256: bodySha256(request.body),
  });
}

export interface SignInput {
  apiKey: string;
  apiSecret: string;
  /** Full request URL, `/<org>/v2/...` (query allowed; signed in version 2 only). */
  url: string;
  method: string;
  timestampMs: number;
  /** Default 1. Version 2 needs the nonce and signs the body (UTF-8 when a string). */
  version?: SignatureVersion;
  nonce?: string;
  body?: Uint8Array | string;
}

/** Signs a request the way a client must. */
export function signRequest(input: SignInput): string {
  const message = messageFor(input.version ?? 1, { ...input, nonce: input.nonce ?? '' });
  if (message === null) throw new Error('the query string is not valid percent-encoded UTF-8');
  return computeSignature(input.apiKey, input.apiSecret, message);
}

/**
 * Compares a presented signature with the expected one in constant time, on the decoded 32-byte
 * digests (so letter case does not matter and lengths leak nothing). `expected` is the digest or
 * its hex; `presented` must already match SIGNATURE_PATTERN.
 */
export function signaturesMatch(expected: Uint8Array | string, presentedHex: string): boolean {
  const a = typeof expected === 'string' ? Buffer.from(expected, 'hex') : expected;
  const b = Buffer.from(presentedHex, 'hex');
  return a.length === 32 && b.length === 32 && timingSafeEqual(a, b);
}
