import { describe, expect, it } from 'vitest';
import { assertScopesInSchema, chainSchemaProblem, type ScopeSchemaType } from './schema-check';

const TYPES: ScopeSchemaType[] = [
  { name: 'account', collection: 'accounts', paths: ['_id', 'email', 'name', 'name.first', 'name.last'] },
  { name: 'c_conversation', collection: 'c_conversations', paths: ['_id', 'c_title'] },
];

describe('chainSchemaProblem', () => {
  it('suggests the type for a collection name or a plural', () => {
    expect(chainSchemaProblem('object.read.accounts', TYPES)).toMatch(
      /no object type "accounts"; did you mean "account"\?/,
    );
    expect(chainSchemaProblem('object.read.c_conversations.*.c_title', TYPES)).toMatch(/did you mean "c_conversation"/);
    expect(chainSchemaProblem('object.read.c_nothing', TYPES)).toBe('there is no object type "c_nothing"');
  });

  it('refuses a property the type does not have, with a suggestion for a case slip', () => {
    expect(chainSchemaProblem('object.read.account.*.name.middle', TYPES)).toMatch(/no property "name.middle"/);
    expect(chainSchemaProblem('object.read.account.*.Email', TYPES)).toMatch(/did you mean "email"/);
  });

  it('accepts chains the schema can satisfy and chains that name no type', () => {
    for (const chain of [
      '*',
      'object',
      'object.read',
      'object.read.account',
      'object.read.account.*.name.first',
      'admin.read',
    ]) {
      expect(chainSchemaProblem(chain, TYPES), chain).toBeUndefined();
    }
  });

  it('throws invalidArgument.authScope naming the entry', () => {
    expect(() => assertScopesInSchema(['object.read.account', 'object.read.accounts'], TYPES)).toThrow(
      expect.objectContaining({
        fault: expect.objectContaining({ errCode: 'service.invalidArgument.authScope', path: 'scope[1]' }),
      }),
    );
  });
});
