/**
 * Names of the cookies and headers the auth code reads and writes. They live outside http/ so that
 * the auth and access code can name them without depending on the HTTP layer; the console sends the
 * same names (see src-renderer/api/).
 */
export const SESSION_COOKIE = 'service.sid';
export const FINGERPRINT_COOKIE = 'service.fingerprint';
export const CLIENT_KEY_HEADER = 'service-client-key';
export const CSRF_HEADER = 'Service-Csrf-Token';
