import { describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../src-shared/schema/types';
import { variableHints, variableUses } from './variable-hints';

const DEF: ObjectDef = {
  name: 'c_conversation',
  collection: 'c_conversations',
  label: 'Conversation',
  custom: true,
  properties: [
    { name: 'c_title', type: 'String' },
    { name: 'c_status', type: 'String', enum: ['open', 'closed'] },
    { name: 'c_count', type: 'Integer' },
    { name: 'c_urgent', type: 'Boolean' },
    { name: 'c_owner', type: 'Reference', refObject: 'account' },
    { name: 'name', type: 'Document', properties: [{ name: 'last', type: 'String' }] },
  ],
};

const where = (value: string) => [{ name: 'where', value }];
const kindOf = (value: string, name: string, component = 'where') =>
  variableHints([{ name: component, value }], DEF).get(name)?.kind;

describe('variableHints', () => {
  it('a $regex operand wants a /pattern/, and says plain text is refused', () => {
    const hint = variableHints(where('{"name.last":{"$regex":"{{last_regex}}"}}'), DEF).get('last_regex');
    expect(hint?.kind).toBe('regex');
    expect(hint?.example).toBe('/^Sm/');
    expect(hint?.hint).toContain('/^Sm/');
    expect(hint?.hint).toContain('plain Sm is refused');
  });

  it('a variable inside a longer string is plain text spliced into that string', () => {
    const hint = variableHints(where('{"name.last":{"$regex":"/^{{prefix}}/i"}}'), DEF).get('prefix');
    expect(hint?.kind).toBe('spliced');
    expect(hint?.hint).toContain('/^…/i');
  });

  it('follows the property a value is compared with, through operators and nested paths', () => {
    expect(kindOf('{"created":{"$gte":"{{since}}"}}', 'since')).toBe('date');
    expect(kindOf('{"c_count":{"$gt":{{n}}}}', 'n')).toBe('number');
    expect(kindOf('{"c_urgent":{{urgent}}}', 'urgent')).toBe('boolean');
    expect(kindOf('{"c_owner":"{{owner}}"}', 'owner')).toBe('id');
    expect(kindOf('{"_id":"{{id}}"}', 'id')).toBe('id');
    expect(kindOf('{"c_title":"{{title}}"}', 'title')).toBe('text');
    expect(kindOf('{"$or":[{"c_title":"{{a}}"},{"created":{"$lt":"{{b}}"}}]}', 'b')).toBe('date');
  });

  it('an enum property offers its values', () => {
    const hint = variableHints(where('{"c_status":"{{status}}"}'), DEF).get('status');
    expect(hint).toMatchObject({ kind: 'choice', options: ['open', 'closed'], example: 'open' });
  });

  it('says when a quoted variable compares a number property with text', () => {
    const hint = variableHints(where('{"c_count":"{{n}}"}'), DEF).get('n');
    expect(hint?.kind).toBe('number');
    expect(hint?.hint).toContain('sent as text');
  });

  it('bare variables take structure: arrays under $in, whole components, sort directions', () => {
    expect(kindOf('{"c_status":{"$in":{{statuses}}}}', 'statuses')).toBe('array');
    expect(kindOf('{{where}}', 'where')).toBe('document');
    expect(kindOf('{"created":{{dir}}}', 'dir', 'sort')).toBe('sort');
    // An element of a literal $in array is one value of the property.
    expect(kindOf('{"c_status":{"$in":["{{one}}","closed"]}}', 'one')).toBe('choice');
  });

  it('without the definition (still loading) it still reads operators, and text for the rest', () => {
    expect(variableHints(where('{"name.last":{"$regex":"{{r}}"}}'), undefined).get('r')?.kind).toBe('regex');
    expect(variableHints(where('{"created":"{{d}}"}'), undefined).get('d')?.kind).toBe('text');
  });

  it('reads quotes and escapes as JSON does, and skips a component that is not JSON', () => {
    expect(variableUses(where('{"c_title":"say \\"{{x}}\\"","c_count":{{n}}}')).map((u) => [u.name, u.bare])).toEqual([
      ['x', false],
      ['n', true],
    ]);
    expect(variableUses(where('{"c_title": {{x}'))).toEqual([]);
  });
});
