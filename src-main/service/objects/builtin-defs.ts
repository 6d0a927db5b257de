import type { ObjectDef, PropertyDef } from '../../../src-shared/schema/types.js';
import { VIEW_DEF } from './view-def.js';
import { DEPLOYMENT_DEF } from './deployment-def.js';
import { LOG_DEF } from './log-def.js';
import { AUDIT_DEF } from './audit-def.js';

/** Ids of the built-in roles; accounts carry them in `roles`. */
export const BUILTIN_ROLES = {
  administrator: '000000000000000000000004',
  provider: '000000000000000000000005',
  support: '000000000000000000000006',
  developer: '000000000000000000000007',
} as const;

const str = (name: string, extra: Partial<PropertyDef> = {}): PropertyDef => ({ name, type: 'String', ...extra });

export const ACCOUNT_STATES = ['unverified', 'verified'] as const;

/** The account: every field of the spec's Account table (`access` is computed per caller). */
const account: ObjectDef = {
  name: 'account',
  collection: 'accounts',
  label: 'Account',
  custom: false,
  compoundIndexes: [['name.last', 'name.first']],
  properties: [
    str('email', { indexed: true, unique: true, required: true, maxLength: 254, format: 'email' }),
    str('mobile', { indexed: true, maxLength: 32 }),
    {
      name: 'name',
      type: 'Document',
      properties: [str('first', { indexed: true, maxLength: 100 }), str('last', { indexed: true, maxLength: 100 })],
    },
    str('gender', { indexed: true, maxLength: 16 }),
    str('locale', { indexed: true, maxLength: 16 }),
    { name: 'favorite', type: 'Boolean', indexed: true },
    { name: 'locked', type: 'Boolean', indexed: true },
    { name: 'shared', type: 'Boolean' },
    str('state', { indexed: true, enum: [...ACCOUNT_STATES] }),
    { name: 'roles', type: 'ObjectId', array: true, indexed: true },
    { name: 'inherited_roles', type: 'ObjectId', array: true, readOnly: true },
    {
      name: 'key',
      type: 'Document',
      properties: [str('fingerprint', { format: 'uuid', maxLength: 36 }), str('secret', { maxLength: 128 })],
    },
  ],
};

const role: ObjectDef = {
  name: 'role',
  collection: 'roles',
  label: 'Role',
  custom: false,
  properties: [
    str('name', { indexed: true, unique: true, required: true, maxLength: 100 }),
    str('code', { indexed: true, maxLength: 100 }),
    { name: 'scopes', type: 'String', array: true, maxLength: 512 },
    { name: 'include', type: 'ObjectId', array: true },
  ],
};

/** A connection grants an account an access level on one instance (its `context`). */
const connection: ObjectDef = {
  name: 'connection',
  collection: 'connections',
  label: 'Connection',
  custom: false,
  properties: [
    { name: 'context', type: 'Reference', indexed: true, required: true },
    { name: 'target', type: 'Reference', refObject: 'account', indexed: true },
    str('email', { indexed: true, maxLength: 254 }),
    { name: 'access', type: 'Integer', indexed: true, required: true },
    str('state', { indexed: true, enum: ['pending', 'active'] }),
  ],
};

/** Custom account properties every new org starts with (spec: c_enrollments, c_study_groups). */
export const DEFAULT_ACCOUNT_CUSTOM_PROPERTIES: PropertyDef[] = [
  {
    name: 'c_enrollments',
    type: 'Document',
    array: true,
    custom: true,
    properties: [
      { name: 'c_study', type: 'String', indexed: true, custom: true, maxLength: 100 },
      { name: 'c_enrolled', type: 'Date', custom: true },
    ],
  },
  { name: 'c_study_groups', type: 'String', array: true, indexed: true, custom: true, maxLength: 100 },
];

const conversation: ObjectDef = {
  name: 'c_conversation',
  collection: 'c_conversations',
  label: 'Conversation',
  custom: true,
  properties: [
    str('c_title', { indexed: true, custom: true, maxLength: 200 }),
    str('c_status', { indexed: true, custom: true, enum: ['open', 'closed'] }),
    { name: 'c_participants', type: 'ObjectId', array: true, indexed: true, custom: true },
  ],
};

const patientfile: ObjectDef = {
  name: 'c_patientfile',
  collection: 'c_patientfiles',
  label: 'Patient file',
  custom: true,
  properties: [
    str('c_name', { indexed: true, custom: true, maxLength: 200 }),
    str('c_mrn', { indexed: true, unique: true, custom: true, maxLength: 64 }),
    { name: 'c_birth_date', type: 'Date', indexed: true, custom: true },
    { name: 'connections', type: 'List', refObject: 'connection' },
  ],
};

/** What a script record is (issue 41 added triggers). */
export const SCRIPT_TYPES = ['route', 'library', 'job', 'trigger'] as const;

/**
 * Scripts of the org (issue 16, docs/scripting.md#script-routes): library code, jobs, and route handlers
 * under `/routes/<path>`. No create ACL: only org administrators create them.
 */
const script: ObjectDef = {
  name: 'script',
  collection: 'scripts',
  label: 'Script',
  custom: false,
  properties: [
    str('label', { maxLength: 200 }),
    str('name', { indexed: true, maxLength: 100 }),
    str('description', { maxLength: 2000 }),
    str('type', { indexed: true, required: true, enum: [...SCRIPT_TYPES] }),
    { name: 'active', type: 'Boolean', indexed: true },
    str('script', { required: true, maxLength: 50_000 }),
    {
      name: 'configuration',
      type: 'Document',
      properties: [
        str('method', { enum: ['*', 'get', 'post', 'put', 'patch', 'delete'] }),
        str('path', { maxLength: 512 }),
        { name: 'priority', type: 'Number' },
        // Strings, or the original's {type, target} entries, stored as strings (acl-entry.ts).
        { name: 'acl', type: 'String', array: true, maxLength: 100, format: 'aclEntry' },
        str('authValidation', { enum: ['legacy', 'all', 'none'] }),
        str('apiKey', { maxLength: 100 }),
        str('principal', { maxLength: 254 }),
        // Issue 40: a library's module name (`require('<export>')`), and the original's route
        // options for bodies sent as text or as a form.
        str('export', { maxLength: 100 }),
        { name: 'plainText', type: 'Boolean' },
        { name: 'urlEncoded', type: 'Boolean' },
        // Issue 41: a trigger's object type and event (`create.before`, …) and whether an after
        // trigger is awaited; a job's schedule (5-field cron).
        str('object', { maxLength: 64 }),
        str('event', { maxLength: 64 }),
        { name: 'inline', type: 'Boolean' },
        str('cron', { maxLength: 200 }),
        // A trigger's property paths: an update runs it only when it touches one (trigger-paths.ts).
        { name: 'paths', type: 'String', array: true, maxLength: 200 },
      ],
    },
    { name: 'weight', type: 'Number' },
  ],
};

/** The definitions a new org starts with. */
export function initialDefinitions(): ObjectDef[] {
  return structuredClone([
    { ...account, properties: [...account.properties, ...DEFAULT_ACCOUNT_CUSTOM_PROPERTIES] },
    role,
    connection,
    conversation,
    patientfile,
    VIEW_DEF,
    DEPLOYMENT_DEF,
    script,
    LOG_DEF,
    AUDIT_DEF,
  ]);
}
