import type { ObjectDef, PropertyDef } from '../../../src-shared/schema/types.js';

const int = (name: string): PropertyDef => ({ name, type: 'Integer' });
const bool = (name: string): PropertyDef => ({ name, type: 'Boolean' });
const str = (name: string, extra: Partial<PropertyDef> = {}): PropertyDef => ({ name, type: 'String', ...extra });

/** Who may run a view: a role (by id or code) or an account (by id, or `*` for every account). */
const aclEntry: PropertyDef[] = [
  str('type', { enum: ['role', 'account'], required: true }),
  str('target', { maxLength: 100, required: true }),
  int('allow'),
];

/** The query components a view may carry (docs/views.md); map, group and pipeline are refused on save. */
export const VIEW_QUERY_COMPONENTS = ['where', 'sort', 'map', 'group', 'pipeline'] as const;

/**
 * A view (docs/views.md): a stored, named query over one object type, run by
 * `GET /<org>/v2/views/<name>`. A built-in type with no ACL fallback, so only org administrators
 * read and write the records at `/views`.
 */
export const VIEW_DEF: ObjectDef = {
  name: 'view',
  collection: 'views',
  label: 'View',
  custom: false,
  properties: [
    str('name', { indexed: true, unique: true, required: true, maxLength: 100 }),
    str('label', { maxLength: 200 }),
    str('description', { maxLength: 2000 }),
    { name: 'active', type: 'Boolean', indexed: true },
    str('sourceObject', { indexed: true, required: true, maxLength: 64 }),
    /** Run as this account (its `_id` or email); absent: as the caller. */
    str('principal', { maxLength: 254 }),
    { name: 'limit', type: 'Document', properties: [bool('settable'), int('defaultValue'), int('min'), int('max')] },
    { name: 'skip', type: 'Document', properties: [bool('settable'), int('defaultValue'), int('min'), int('max')] },
    {
      name: 'paths',
      type: 'Document',
      properties: [
        bool('settable'),
        { name: 'defaultValue', type: 'String', array: true, maxLength: 200 },
        { name: 'limitTo', type: 'String', array: true, maxLength: 200 },
      ],
    },
    /** A `{{name}}` the components use: its default argument and what it wants, in words (views/view-variables.ts). */
    {
      name: 'variables',
      type: 'Document',
      array: true,
      properties: [
        str('name', { maxLength: 64, required: true }),
        str('defaultValue', { maxLength: 2000 }),
        str('description', { maxLength: 500 }),
      ],
    },
    { name: 'acl', type: 'Document', array: true, properties: aclEntry },
    { name: 'objectAcl', type: 'Document', array: true, properties: aclEntry },
    {
      name: 'query',
      type: 'Document',
      array: true,
      properties: [
        str('name', { enum: [...VIEW_QUERY_COMPONENTS], required: true }),
        str('value', { maxLength: 100_000 }),
      ],
    },
  ],
};
