import { describe, expect, it } from 'vitest';
import { FaultError } from '../faults';
import type { ChainFailure, ParsedChain, ScopeChain } from './chain';
import { isValidScopeChain, parseScopeChain, validateScopes } from './parse';
import { MAX_CHAINS_PER_TOKEN, MAX_CHAIN_LENGTH } from './syntax';

const ID = '5f0c3b2a1d4e6f7a8b9c0d1e';

function chainOf(text: string): ScopeChain {
  const parsed = parseScopeChain(text);
  if (!parsed.ok) throw new Error(`expected ${text} to parse, got: ${parsed.reason}`);
  return parsed.chain;
}

function failureOf(text: string): ChainFailure {
  const parsed: ParsedChain = parseScopeChain(text);
  if (parsed.ok) throw new Error(`expected ${text} to be rejected`);
  return parsed;
}

const object = (fields: Partial<Extract<ScopeChain, { kind: 'object' }>>) => ({
  kind: 'object',
  operation: null,
  objectType: null,
  subtype: null,
  identifier: null,
  propertyPath: null,
  ...fields,
});

describe('the spec examples (docs/scopes.md#scope-chains)', () => {
  it('accepts a read of the name of all accounts', () => {
    expect(chainOf('object.read.account.*.name')).toEqual(
      object({
        source: 'object.read.account.*.name',
        operation: 'read',
        objectType: 'account',
        identifier: { kind: 'any' },
        propertyPath: 'name',
      }),
    );
  });

  it('accepts script execution', () => {
    expect(chainOf('script.execute')).toEqual({
      kind: 'script',
      source: 'script.execute',
      action: 'execute',
      target: null,
      identifier: null,
    });
  });

  it('accepts execution of one named view', () => {
    expect(chainOf('view.execute.c_my_view')).toEqual({
      kind: 'view',
      source: 'view.execute.c_my_view',
      action: 'execute',
      identifier: { kind: 'code', value: 'c_my_view' },
    });
  });

  it('rejects reading the account name with no identifier or * before the property', () => {
    const failure = failureOf('object.read.account.name');
    expect(failure.reason).toBe(
      'an identifier or * is required before a property path: "name" is not * or a 24-character hex instance id (did you mean object.read.account.*.name?)',
    );
    expect(failure).toMatchObject({ position: 20, segment: 3 });
  });

  it.each(['deployment.create', 'deployment.create.*', 'deployment.create.c_deploy'])(
    'rejects %s and points to object.create.deployment',
    (text) => {
      const failure = failureOf(text);
      expect(failure.reason).toBe(
        'deployment.create is not a scope: deployments are objects, so use object.create.deployment instead',
      );
      expect(failure).toMatchObject({ position: 11, segment: 1 });
    },
  );

  it('points every deployment CRUD action to its object scope', () => {
    expect(failureOf('deployment.update').reason).toContain('use object.update.deployment instead');
    expect(failureOf('deployment.read').reason).toContain('use object.read.deployment instead');
  });
});

describe('the lone *', () => {
  it('is everything', () => {
    expect(chainOf('*')).toEqual({ kind: 'all', source: '*' });
  });

  it.each([
    ['*.object', 2],
    ['*.*', 2],
    ['*.', 2],
  ])('must stand alone: %s', (text, position) => {
    expect(failureOf(text)).toEqual({
      ok: false,
      reason: '"*" grants everything and must stand alone',
      position,
      segment: 1,
    });
  });
});

describe('object chains', () => {
  it.each<[string, Partial<Extract<ScopeChain, { kind: 'object' }>>]>([
    ['object', {}],
    ['object.read', { operation: 'read' }],
    ['object.read.account', { operation: 'read', objectType: 'account' }],
    ['object.create.account', { operation: 'create', objectType: 'account' }],
    [
      'object.create.c_patient_file.*',
      { operation: 'create', objectType: 'c_patient_file', identifier: { kind: 'any' } },
    ],
    ['object.update.account.*', { operation: 'update', objectType: 'account', identifier: { kind: 'any' } }],
    [
      `object.delete.account.${ID}`,
      { operation: 'delete', objectType: 'account', identifier: { kind: 'id', value: ID } },
    ],
    [
      `object.read.account.${ID.toUpperCase()}.name`,
      {
        operation: 'read',
        objectType: 'account',
        identifier: { kind: 'id', value: ID },
        propertyPath: 'name',
      },
    ],
    ['object..account', { objectType: 'account' }],
    ['object..account.*', { objectType: 'account', identifier: { kind: 'any' } }],
    [
      'object..account.*.name.first',
      { objectType: 'account', identifier: { kind: 'any' }, propertyPath: 'name.first' },
    ],
    ['object.read.c_step#c_text', { operation: 'read', objectType: 'c_step', subtype: 'c_text' }],
    [
      'object.update.c_step#c_text.*.c_body._raw',
      {
        operation: 'update',
        objectType: 'c_step',
        subtype: 'c_text',
        identifier: { kind: 'any' },
        propertyPath: 'c_body._raw',
      },
    ],
  ])('parses %s', (text, fields) => {
    expect(chainOf(text)).toEqual(object({ source: text, ...fields }));
  });

  it.each<[string, string, number, number]>([
    [
      'object.',
      'the chain ends with "."; write "object" to grant every operation on every type, or name an object type after the two dots (object..account)',
      7,
      1,
    ],
    ['object..', 'the chain ends with "."; the object type is missing after it', 8, 2],
    ['object.read.', 'the chain ends with "."; the object type is missing after it', 12, 2],
    ['object.read..*', 'the object type is empty (two dots in a row)', 12, 2],
    [
      'object.*.account',
      '"*" is not an operation; leave the operation empty to grant every operation (object..account)',
      7,
      1,
    ],
    [
      'object.write.account',
      'unknown operation "write"; expected create, read, update or delete, or leave the operation empty to grant every operation (object..account)',
      7,
      1,
    ],
    [
      'object.READ.account',
      'unknown operation "READ"; expected create, read, update or delete, or leave the operation empty to grant every operation (object..account)',
      7,
      1,
    ],
    [
      'object.read.*',
      '"*" cannot stand for the object type; end the chain after the operation (object.read) to cover every type',
      12,
      2,
    ],
    [
      'object.read.Account',
      '"Account" is not a valid object type name (lower-case letters, digits and _, starting with a letter)',
      12,
      2,
    ],
    [
      'object.read.1account',
      '"1account" is not a valid object type name (lower-case letters, digits and _, starting with a letter)',
      12,
      2,
    ],
    ['object.read.c_step#', 'the subtype after "#" is empty; write c_step#<subtype> or drop the "#"', 19, 2],
    [
      'object.read.c_step#C-x',
      '"C-x" is not a valid subtype name (lower-case letters, digits and _, starting with a letter)',
      19,
      2,
    ],
    [
      'object.read.c_step#a#b',
      '"a#b" is not a valid subtype name (lower-case letters, digits and _, starting with a letter)',
      19,
      2,
    ],
    [
      'object.read.account.',
      'the chain ends with "."; the instance identifier (* or a 24-character hex id) is missing after it',
      20,
      3,
    ],
    ['object.read.account.5f0c', '"5f0c" is not * or a 24-character hex instance id', 20, 3],
    [`object.read.account.${ID}0`, `"${ID}0" is not * or a 24-character hex instance id`, 20, 3],
    [
      'object.update.c_step#c_text.c_body.c_raw',
      'an identifier or * is required before a property path: "c_body" is not * or a 24-character hex instance id (did you mean object.update.c_step#c_text.*.c_body.c_raw?)',
      28,
      3,
    ],
    [
      `object.create.account.${ID}`,
      'object.create cannot name one instance, which does not exist until it is created; use * instead',
      22,
      3,
    ],
    ['object.read.account.*.', 'the chain ends with "."; a property path segment is missing after it', 22, 4],
    ['object.read.account.*.name..first', 'a property path segment is empty (two dots in a row)', 27, 5],
    ['object.read.account.*.*', '"*" is not allowed in a property path; name the property', 22, 4],
    [
      'object.read.account.*.name.1st',
      '"1st" is not a valid property name (letters, digits and _, not starting with a digit)',
      27,
      5,
    ],
    [
      'object.read.account.*.name-x',
      '"name-x" is not a valid property name (letters, digits and _, not starting with a digit)',
      22,
      4,
    ],
  ])('rejects %s', (text, reason, position, segment) => {
    expect(failureOf(text)).toEqual({ ok: false, reason, position, segment });
  });
});

describe('script chains', () => {
  it.each<[string, Omit<Extract<ScopeChain, { kind: 'script' }>, 'kind' | 'source'>]>([
    ['script', { action: null, target: null, identifier: null }],
    ['script.*', { action: '*', target: null, identifier: null }],
    ['script.execute', { action: 'execute', target: null, identifier: null }],
    ['script.execute.*', { action: 'execute', target: '*', identifier: null }],
    ['script.execute.route', { action: 'execute', target: 'route', identifier: null }],
    ['script.execute.route.*', { action: 'execute', target: 'route', identifier: { kind: 'any' } }],
    [
      'script.execute.route.c_nightly-sync',
      { action: 'execute', target: 'route', identifier: { kind: 'code', value: 'c_nightly-sync' } },
    ],
    [`script.execute.route.${ID}`, { action: 'execute', target: 'route', identifier: { kind: 'id', value: ID } }],
    ['script.execute.runner', { action: 'execute', target: 'runner', identifier: null }],
  ])('parses %s', (text, fields) => {
    expect(chainOf(text)).toEqual({ kind: 'script', source: text, ...fields });
  });

  it.each<[string, string, number]>([
    ['script.', 'the chain ends with "."; the script action (execute) is missing after it', 7],
    ['script.route', '"route" goes after execute: write script.execute.route', 7],
    ['script.runner.x', '"runner" goes after execute: write script.execute.runner', 7],
    ['script.run', 'unknown script action "run"; expected execute or *', 7],
    ['script.*.route', 'script.* already covers every script; nothing may follow the "*"', 9],
    ['script.*.', 'script.* already covers every script; nothing may follow the "*"', 9],
    ['script.execute.', 'the chain ends with "."; the script target (*, route or runner) is missing after it', 15],
    ['script.execute.library', 'unknown script target "library"; expected *, route or runner', 15],
    ['script.execute.*.c_x', 'script.execute.* already covers every script; nothing may follow the "*"', 17],
    ['script.execute.*.*.*', 'script.execute.* already covers every script; nothing may follow the "*"', 17],
    [
      'script.execute.runner.c_x',
      'the script runner is a single system route; script.execute.runner takes no identifier',
      22,
    ],
    ['script.execute.route.', 'the chain ends with "."; the route identifier is missing after it', 21],
    [
      'script.execute.route.9bad',
      '"9bad" is not a valid identifier; expected *, a 24-character hex id or a code name (letters, digits, _ and -)',
      21,
    ],
    ['script.execute.route.c_x.extra', 'nothing may follow the route identifier', 25],
  ])('rejects %s', (text, reason, position) => {
    const failure = failureOf(text);
    expect(failure.reason).toBe(reason);
    expect(failure.position).toBe(position);
  });
});

describe('view and deployment chains', () => {
  it.each<[string, unknown]>([
    ['view', { action: null, identifier: null }],
    ['view.*', { action: '*', identifier: null }],
    ['view.execute', { action: 'execute', identifier: null }],
    ['view.execute.*', { action: 'execute', identifier: { kind: 'any' } }],
    ['view.*.c_my_view', { action: '*', identifier: { kind: 'code', value: 'c_my_view' } }],
    [`view.execute.${ID}`, { action: 'execute', identifier: { kind: 'id', value: ID } }],
  ])('parses %s', (text, fields) => {
    expect(chainOf(text)).toEqual({ kind: 'view', source: text, ...(fields as object) });
  });

  it.each<[string, unknown]>([
    ['deployment', { action: null, identifier: null }],
    ['deployment.*', { action: '*', identifier: null }],
    ['deployment.execute', { action: 'execute', identifier: null }],
    ['deployment.execute.c_release-2', { action: 'execute', identifier: { kind: 'code', value: 'c_release-2' } }],
    [`deployment.*.${ID}`, { action: '*', identifier: { kind: 'id', value: ID } }],
  ])('parses %s', (text, fields) => {
    expect(chainOf(text)).toEqual({ kind: 'deployment', source: text, ...(fields as object) });
  });

  it.each<[string, string, number]>([
    ['view.', 'the chain ends with "."; the view action (* or execute) is missing after it', 5],
    ['view.read', 'unknown view action "read"; expected * or execute', 5],
    ['view.create.c_x', 'unknown view action "create"; expected * or execute', 5],
    ['view.execute.', 'the chain ends with "."; the view identifier is missing after it', 13],
    ['view.execute.my view', 'whitespace is not allowed in a scope chain', 15],
    [
      'view.execute.c_x!',
      '"c_x!" is not a valid identifier; expected *, a 24-character hex id or a code name (letters, digits, _ and -)',
      13,
    ],
    ['view.execute.c_x.extra', 'nothing may follow the view identifier', 17],
    ['deployment.run', 'unknown deployment action "run"; expected * or execute', 11],
    ['deployment.execute.c_x.y', 'nothing may follow the deployment identifier', 23],
  ])('rejects %s', (text, reason, position) => {
    const failure = failureOf(text);
    expect(failure.reason).toBe(reason);
    expect(failure.position).toBe(position);
  });
});

describe('admin chains', () => {
  it.each([
    ['admin', null],
    ['admin.*', '*'],
    ['admin.read', 'read'],
    ['admin.update', 'update'],
  ] as const)('parses %s', (text, action) => {
    expect(chainOf(text)).toEqual({ kind: 'admin', source: text, action });
  });

  it.each<[string, string, number]>([
    ['admin.', 'the chain ends with "."; the admin action (*, read or update) is missing after it', 6],
    ['admin.delete', 'unknown admin action "delete"; expected *, read or update', 6],
    ['admin.read.accounts', 'nothing may follow admin.read', 11],
    ['admin.*.*', 'nothing may follow admin.*', 8],
  ])('rejects %s', (text, reason, position) => {
    const failure = failureOf(text);
    expect(failure.reason).toBe(reason);
    expect(failure.position).toBe(position);
  });
});

describe('whole-chain rules', () => {
  it.each<[string, string, number, number]>([
    ['', 'the scope chain is empty', 0, 0],
    ['.object', 'the chain starts with "."; a chain starts with *, object, script, view, deployment or admin', 0, 0],
    [
      'objects.*',
      'unknown scope kind "objects"; a chain starts with *, object, script, view, deployment or admin',
      0,
      0,
    ],
    [
      'Object.read',
      'unknown scope kind "Object"; a chain starts with *, object, script, view, deployment or admin',
      0,
      0,
    ],
    ['ws.connect', 'unknown scope kind "ws"; a chain starts with *, object, script, view, deployment or admin', 0, 0],
    [' object', 'whitespace is not allowed in a scope chain', 0, 0],
    ['object.read ', 'whitespace is not allowed in a scope chain', 11, 1],
    ['object.read.account.*.na\tme', 'whitespace is not allowed in a scope chain', 24, 4],
    ['object.read.\naccount', 'whitespace is not allowed in a scope chain', 12, 2],
  ])('rejects %j', (text, reason, position, segment) => {
    expect(failureOf(text)).toEqual({ ok: false, reason, position, segment });
  });

  it('accepts a chain of exactly the maximum length and rejects one character more', () => {
    // 22 + 9 × 50 + 40 = 512 characters, every property segment well under its own 64-character cap.
    const atLimit = `object.read.account.*.${`${'x'.repeat(49)}.`.repeat(9)}${'x'.repeat(40)}`;
    expect(atLimit).toHaveLength(MAX_CHAIN_LENGTH);
    expect(isValidScopeChain(atLimit)).toBe(true);
    const failure = failureOf(`${atLimit}x`);
    expect(failure.reason).toBe(`the scope chain is ${MAX_CHAIN_LENGTH + 1} characters long; the limit is 512`);
    expect(failure).toMatchObject({ position: MAX_CHAIN_LENGTH, segment: 13 });
  });

  it('caps a property name at 64 characters, like the schema', () => {
    expect(isValidScopeChain(`object.read.account.*.${'a'.repeat(64)}`)).toBe(true);
    expect(isValidScopeChain(`object.read.account.*.${'a'.repeat(65)}`)).toBe(false);
  });

  it('rejects a non-string that slipped past the type system', () => {
    expect(parseScopeChain(42 as unknown as string)).toEqual({
      ok: false,
      reason: 'a scope chain must be a string',
      position: 0,
      segment: 0,
    });
  });
});

describe('validateScopes', () => {
  function faultOf(list: unknown) {
    try {
      validateScopes(list);
    } catch (error) {
      if (error instanceof FaultError) return error.fault;
      throw error;
    }
    throw new Error('expected validateScopes to throw');
  }

  it('returns a valid list unchanged (as a copy)', () => {
    const list = ['object.read.account.*.name', 'script.execute', 'view.execute.c_my_view', '*'];
    const result = validateScopes(list);
    expect(result).toEqual(list);
    expect(result).not.toBe(list);
  });

  it('accepts an empty list (a token allowed nothing)', () => {
    expect(validateScopes([])).toEqual([]);
  });

  it('throws invalidArgument.authScope naming the first invalid chain, where and why', () => {
    const body = faultOf(['script.execute', 'object.read.account.name', 'deployment.create']);
    expect(body).toMatchObject({
      code: 'kInvalidArgument',
      errCode: 'service.invalidArgument.authScope',
      status: 400,
      path: 'scope[1]',
    });
    expect(body.reason).toBe(
      'scope[1] "object.read.account.name" is not a valid scope chain: an identifier or * is required before a property path: "name" is not * or a 24-character hex instance id (did you mean object.read.account.*.name?) (at character 21)',
    );
  });

  it('rejects a deployment.create chain with the object.create.deployment hint', () => {
    expect(faultOf(['deployment.create']).reason).toContain('use object.create.deployment instead');
  });

  it.each([
    [undefined, 'scope must be an array of scope chains', 'scope'],
    ['object.read', 'scope must be an array of scope chains', 'scope'],
    [{ 0: '*' }, 'scope must be an array of scope chains', 'scope'],
    [['*', 7], 'scope[1] must be a string', 'scope[1]'],
    [[null], 'scope[0] must be a string', 'scope[0]'],
  ])('rejects %j', (list, reason, path) => {
    expect(faultOf(list)).toMatchObject({ errCode: 'service.invalidArgument.authScope', reason, path });
  });

  it(`accepts ${MAX_CHAINS_PER_TOKEN} chains and rejects one more`, () => {
    const many = Array.from({ length: MAX_CHAINS_PER_TOKEN }, () => 'admin.read');
    expect(validateScopes(many)).toHaveLength(MAX_CHAINS_PER_TOKEN);
    expect(faultOf([...many, 'admin.read']).reason).toBe(
      `scope has ${MAX_CHAINS_PER_TOKEN + 1} chains; the limit is ${MAX_CHAINS_PER_TOKEN}`,
    );
  });
});
