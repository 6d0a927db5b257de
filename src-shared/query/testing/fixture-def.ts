/** An object definition covering every path kind the query language handles; used by tests. */
import type { ObjectDef } from '../../schema/types.js';

export const THING_DEF: ObjectDef = {
  name: 'c_thing',
  collection: 'c_things',
  label: 'Thing',
  custom: true,
  properties: [
    { name: 'c_str', type: 'String', indexed: true },
    { name: 'c_num', type: 'Number', indexed: true },
    { name: 'c_int', type: 'Integer', indexed: true },
    { name: 'c_bool', type: 'Boolean', indexed: true },
    { name: 'c_date', type: 'Date', indexed: true },
    { name: 'c_oid', type: 'ObjectId', indexed: true },
    { name: 'c_plain', type: 'String' },
    { name: 'c_tags', type: 'String', array: true, indexed: true },
    { name: 'c_owner', type: 'Reference', refObject: 'account', indexed: true },
    {
      name: 'name',
      type: 'Document',
      properties: [
        { name: 'first', type: 'String', indexed: true },
        { name: 'last', type: 'String', indexed: true },
        { name: 'nick', type: 'String' },
      ],
    },
    {
      name: 'c_enrollments',
      type: 'Document',
      array: true,
      indexed: true,
      properties: [
        { name: 'c_course', type: 'String', indexed: true },
        { name: 'c_score', type: 'Integer', indexed: true },
        { name: 'c_codes', type: 'String', array: true, indexed: true },
        { name: 'c_note', type: 'String' },
      ],
    },
    { name: 'connections', type: 'List', refObject: 'connection' },
  ],
};
