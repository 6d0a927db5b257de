/**
 * Writes audit entries (issue 41; objects/audit-def.ts): every administrative action — apps, keys
 * and secrets, tokens, roles and scopes, accounts, settings, imports, deployments, scripts,
 * definitions — and, when the org's `auditRecordWrites` is on, every record write. Entries are
 * bounded (a summary of 1,000 characters, at most 100 changed paths) and never hold a secret: the
 * callers pass names and paths, never values of secret properties.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Json } from '../objects/validate.js';
import type { StoredRecord } from '../objects/stored-record.js';
import type { AuditCategory } from '../objects/audit-def.js';
import { withRunningScript, type AuditActor } from './actor.js';
import { systemInsert } from '../objects/system-writes.js';

export const MAX_AUDIT_CHANGES = 100;
const OBJECT_ID = /^[0-9a-f]{24}$/;
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`);

export interface AuditEvent {
  cat: AuditCategory;
  /** The action: create, update, delete, rotateSecret, mint, revoke, lock, … */
  sub: string;
  target?: { object: string; _id?: string; label?: string };
  summary: string;
  /** Property paths the action changed (never their values). */
  changes?: readonly string[];
}

/** The entry's document (exported for tests). */
export function auditDocument(actor: AuditActor, event: AuditEvent): Record<string, Json> {
  const who: Record<string, Json> = { type: actor.type };
  for (const key of ['account', 'email', 'app', 'jti', 'script', 'scriptType', 'address'] as const) {
    const value = actor[key];
    if (value === undefined || value === '') continue;
    if ((key === 'account' || key === 'script') && !OBJECT_ID.test(value)) continue;
    who[key] = clip(value, key === 'email' ? 254 : 64);
  }
  const doc: Record<string, Json> = {
    cat: event.cat,
    sub: clip(event.sub, 64),
    actor: who,
    summary: clip(event.summary, 1000),
  };
  if (typeof who.account === 'string') doc.principal = who.account;
  if (event.target) {
    const context: Record<string, Json> = { object: clip(event.target.object, 64) };
    if (event.target._id) context._id = clip(event.target._id, 100);
    if (event.target.label) context.label = clip(event.target.label, 200);
    doc.context = context;
  }
  if (event.changes && event.changes.length > 0) {
    doc.changes = [...new Set(event.changes)].slice(0, MAX_AUDIT_CHANGES).map((p) => clip(p, 200));
  }
  return doc;
}

/**
 * Writes an entry. Never throws: an audit entry that cannot be written (the database busy with
 * another process's long write) must not undo or fail the action it records, which is done.
 */
export function recordAudit(svc: Service, org: Org, actor: AuditActor, event: AuditEvent): StoredRecord | undefined {
  try {
    const def = svc.defs.byName(org.id, 'audit');
    if (!def) return undefined;
    const doc = auditDocument(withRunningScript(actor), event);
    return systemInsert(svc.store, 'auditEntry', org.id, def, doc, { uncached: true });
  } catch {
    return undefined;
  }
}

/** The entry of an environment import that wrote (HTTP or the command line). */
export function auditImport(
  svc: Service,
  org: Org,
  actor: AuditActor,
  changes: readonly { resource: string; change: string }[],
): void {
  const changed = changes.filter((c) => c.change !== 'unchanged' && c.change !== 'kept');
  recordAudit(svc, org, actor, {
    cat: 'import',
    sub: 'import',
    target: { object: 'org', _id: org.code },
    summary: `Imported configuration: ${changed.length} of ${changes.length} resource(s) added or changed.`,
    changes: changed.map((c) => `${c.change} ${c.resource}`),
  });
}
