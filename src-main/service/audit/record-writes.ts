/**
 * Audit entries of record writes (issue 41), run by the write path once a write has committed:
 * writes of configuration records — scripts, roles (and their scopes), views, deployments — and of
 * an account's privileges (roles, locked, state) always leave one; every other write does when
 * the org's `auditRecordWrites` is on. The entry names the changed properties, never their values.
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import type { AuditCategory } from '../objects/audit-def.js';
import { isServiceWritten } from '../objects/service-written.js';
import { callerActor, type AuditActor } from './actor.js';
import { recordAudit } from './record.js';

/** Types whose every write is an administrative action. */
const CONFIGURATION: Readonly<Record<string, AuditCategory>> = {
  script: 'script',
  role: 'role',
  view: 'view',
  deployment: 'deployment',
};
/** Account properties whose change is an administrative action (access/objects.ts keeps them to administrators). */
const ACCOUNT_PRIVILEGES = new Set(['roles', 'locked', 'state', 'email']);

export interface AuditedWrite {
  org: Org;
  def: ObjectDef;
  op: 'create' | 'update' | 'delete';
  id: string;
  /** Top-level properties written (create, update). */
  changed: readonly string[];
  /** The record's name or label, when it has one. */
  label?: string;
  caller?: Caller;
  /** A load's account (an import's administrator); absent for the command line's loads. */
  actorId?: string;
}

/** Whether the write leaves an entry, and under which category. */
export function auditCategoryOf(write: Pick<AuditedWrite, 'org' | 'def' | 'changed'>): AuditCategory | undefined {
  if (isServiceWritten(write.def.name)) return undefined;
  const configuration = CONFIGURATION[write.def.name];
  if (configuration) return configuration;
  if (write.def.name === 'account' && write.changed.some((p) => ACCOUNT_PRIVILEGES.has(p))) return 'account';
  return write.org.settings.auditRecordWrites ? 'record' : undefined;
}

function actorOf(write: AuditedWrite): AuditActor {
  if (write.caller) return callerActor(write.caller);
  return write.actorId ? { type: 'system', account: write.actorId } : { type: 'cli' };
}

const verbs = { create: 'Created', update: 'Changed', delete: 'Deleted' } as const;

export function auditRecordWrite(svc: Service, write: AuditedWrite): void {
  const cat = auditCategoryOf(write);
  if (!cat) return;
  const name = write.label ? `${write.def.name} ${write.label}` : `${write.def.name} ${write.id}`;
  const what = write.op === 'update' && write.changed.length > 0 ? ` (${write.changed.join(', ')})` : '';
  recordAudit(svc, write.org, actorOf(write), {
    cat,
    sub: write.op,
    target: { object: write.def.name, _id: write.id, ...(write.label ? { label: write.label } : {}) },
    summary: `${verbs[write.op]} ${name}${what}.`,
    changes: write.changed,
  });
}
