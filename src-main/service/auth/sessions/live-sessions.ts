import { createHash } from 'node:crypto';
import type { Service } from '../../service.js';
import type { Org } from '../../orgs/orgs.js';
import { sessionIdle } from './sessions.js';

export interface LiveSession {
  /** The lookup hash: needed to end the session, never shown. */
  idHash: string;
  object: 'session';
  id: string;
  account: string;
  app: string;
  created: string;
  lastSeen: string;
  ip: string | null;
  userAgent: string | null;
}

/** The id shown for a session: derived from the lookup hash, so it can never be used as a cookie. */
export const publicSessionId = (idHash: string): string =>
  createHash('sha256').update(idHash).digest('hex').slice(0, 16);

/** Live sessions of the org, most recently seen first: not ended and not idle past their app's `authDuration`. */
export function liveSessions(svc: Service, org: Org): LiveSession[] {
  const now = svc.clock.now();
  const out: LiveSession[] = [];
  for (const r of svc.sessions.listLive(org.id)) {
    const app = svc.apps.byId(r.appId);
    if (!app || sessionIdle(r.lastSeen, app.settings.authDuration, now)) continue;
    out.push({
      idHash: r.idHash,
      object: 'session',
      id: publicSessionId(r.idHash),
      account: r.accountId,
      app: app.key,
      created: new Date(r.created).toISOString(),
      lastSeen: new Date(r.lastSeen).toISOString(),
      ip: r.ip,
      userAgent: r.userAgent,
    });
  }
  return out;
}

/** Ends a live session of the org by its public id; false when no live session has it. */
export function endLiveSession(svc: Service, org: Org, id: string, reason: string): boolean {
  const found = liveSessions(svc, org).find((s) => s.id === id);
  if (!found) return false;
  svc.sessions.end(found.idHash, reason);
  return true;
}
