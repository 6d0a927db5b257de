/** DTOs of the outbox and live-session lists (docs/sessions.md), shared by the service and the console. */

/** A message the service would have sent: verification codes, reset links. */
export interface OutboxMessage {
  _id: string;
  object: 'message';
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  created: string;
}

/** A live session (`GET /sessions`); `id` is a public handle, not the cookie value. */
export interface LiveSession {
  object: 'session';
  id: string;
  account: string;
  app: string;
  created: string;
  lastSeen: string;
  /** The address the session was started from, when known. */
  ip: string | null;
  /** The browser's User-Agent at sign-in, at most 300 characters, when sent. */
  userAgent: string | null;
  /** Whether this is the caller's own session. */
  current: boolean;
}
