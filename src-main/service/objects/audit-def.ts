import type { ObjectDef, PropertyDef } from '../../../src-shared/schema/types.js';

/** Every property of an audit entry is the service's: callers never write one (service-written.ts). */
const ro = (p: PropertyDef): PropertyDef => ({ ...p, readOnly: true });
const str = (name: string, extra: Partial<PropertyDef> = {}): PropertyDef =>
  ro({ name, type: 'String', maxLength: 200, ...extra });

/** What was acted on (`cat`, the original's category). */
export const AUDIT_CATEGORIES = [
  'app',
  'token',
  'account',
  'role',
  'script',
  'view',
  'deployment',
  'object',
  'settings',
  'import',
  'session',
  'record',
] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

/** How the actor reached the service. */
export const AUDIT_ACTOR_TYPES = ['session', 'token', 'signature', 'script', 'cli', 'system'] as const;

/**
 * An audit entry (issue 41), shaped as the original's `audit` object — `cat`egory and `sub`category
 * (the action), `principal` (the account that acted), `context` `{object, _id}` (the target) —
 * with who acted in more detail (`actor`: how they came — session, token with its `jti`, signed
 * request with its app, script, the command line — and from which address), a `summary` in words
 * and the property paths that changed. Never a secret: paths and names, never passwords, tokens,
 * app secrets or keys. Written by the service only (audit/record.ts); org administrators read them
 * at `GET /audits` with the list arguments.
 */
export const AUDIT_DEF: ObjectDef = {
  name: 'audit',
  collection: 'audits',
  label: 'Audit',
  custom: false,
  properties: [
    str('cat', { indexed: true, enum: [...AUDIT_CATEGORIES] }),
    str('sub', { indexed: true, maxLength: 64 }),
    ro({ name: 'principal', type: 'ObjectId', indexed: true }),
    ro({
      name: 'actor',
      type: 'Document',
      properties: [
        str('type', { indexed: true, enum: [...AUDIT_ACTOR_TYPES] }),
        ro({ name: 'account', type: 'ObjectId', indexed: true }),
        str('email', { maxLength: 254 }),
        str('app', { indexed: true, maxLength: 64 }),
        str('jti', { indexed: true, maxLength: 64 }),
        ro({ name: 'script', type: 'ObjectId', indexed: true }),
        str('scriptType', { maxLength: 16 }),
        str('address', { maxLength: 64 }),
      ],
    }),
    ro({
      name: 'context',
      type: 'Document',
      properties: [
        str('object', { indexed: true, maxLength: 64 }),
        str('_id', { indexed: true, maxLength: 100 }),
        str('label', { maxLength: 200 }),
      ],
    }),
    str('summary', { maxLength: 1000 }),
    ro({ name: 'changes', type: 'String', array: true, maxLength: 200 }),
  ],
};
