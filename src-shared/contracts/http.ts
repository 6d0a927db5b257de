/** Header and cookie names of the wire protocol (docs/signing.md, docs/sessions.md), one spelling for both sides. */

export const CLIENT_KEY_HEADER = 'Service-Client-Key';
export const SIGNATURE_HEADER = 'Service-Client-Signature';
export const TIMESTAMP_HEADER = 'Service-Client-Timestamp';
export const NONCE_HEADER = 'Service-Client-Nonce';
/** Picks the signature version (docs/signing.md); absent means version 1. */
export const SIGNATURE_VERSION_HEADER = 'Service-Client-Signature-Version';
/** Principal override of a signed request (apps with principal override only). */
export const ACCOUNT_HEADER = 'Service-Client-Account';
export const CSRF_HEADER = 'Service-Csrf-Token';
/** The service's clock (Unix ms) on every answer. */
export const SERVER_TIME_HEADER = 'Service-Server-Time';

export const SESSION_COOKIE = 'service.sid';
export const FINGERPRINT_COOKIE = 'service.fingerprint';
