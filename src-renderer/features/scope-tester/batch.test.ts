import { describe, expect, it } from 'vitest';
import { decodeTokenScope, evaluateBatch, rowRequest, summarizeBatch, typeChoices, type TestRow } from './batch';

const ID = '0123456789abcdef01234567';
const row = (over: Partial<TestRow>): TestRow => ({
  operation: 'read',
  objectType: 'account',
  instanceId: '',
  propertyPath: '',
  ...over,
});

describe('evaluateBatch', () => {
  const chains = ['object.read.account.*.name', 'object.update.c_thing', 'not.a.chain'];

  it('answers each row and names the deciding chain', () => {
    const results = evaluateBatch(chains, [
      row({ propertyPath: 'name.first', expected: 'allowed' }),
      row({ propertyPath: 'email', expected: 'allowed' }),
      row({ operation: 'update', objectType: 'c_thing', instanceId: ID }),
      row({ operation: 'delete', objectType: 'c_thing', instanceId: ID, expected: 'denied' }),
    ]);
    expect(results.map((r) => r.verdict)).toEqual(['allowed', 'denied', 'allowed', 'denied']);
    expect(results[0]?.decision?.matchedChain).toBe('object.read.account.*.name');
    expect(results[2]?.decision?.matchedChain).toBe('object.update.c_thing');
    expect(results[1]?.decision?.explanation).toContain('1 invalid chain ignored');
    expect(results.map((r) => r.outcome)).toEqual(['pass', 'fail', undefined, 'pass']);
    expect(summarizeBatch(results)).toEqual({ allowed: 2, denied: 2, invalid: 0, passed: 2, failed: 1 });
  });

  it('denies everything without chains', () => {
    expect(evaluateBatch([], [row({})])[0]?.decision?.explanation).toBe('no scopes: nothing allowed');
  });

  it('reports rows that are not requests instead of guessing', () => {
    expect(rowRequest(row({ objectType: 'Account' }))).toMatchObject({ ok: false });
    expect(rowRequest(row({ instanceId: 'xyz' }))).toMatchObject({ ok: false });
    expect(rowRequest(row({ operation: 'create', instanceId: ID }))).toMatchObject({ ok: false });
    expect(rowRequest(row({ objectType: 'c_file#scan', instanceId: ID.toUpperCase() }))).toEqual({
      ok: true,
      request: { kind: 'object', operation: 'read', objectType: 'c_file', subtype: 'scan', instanceId: ID },
    });
    expect(summarizeBatch(evaluateBatch(['*'], [row({ propertyPath: '1bad' })])).invalid).toBe(1);
  });
});

describe('execute rows: script chains in the tester', () => {
  const exec = (objectType: string, instanceId = '') => row({ operation: 'execute', objectType, instanceId });

  it('decides the runner, routes, views and deployments with the script, view and deployment chains', () => {
    const rows = [exec('runner'), exec('route', 'c_sync'), exec('route', ID), exec('script'), exec('view', 'c_v')];
    const verdicts = (chains: string[]) => evaluateBatch(chains, rows).map((r) => r.verdict);
    expect(verdicts(['script.*'])).toEqual(['allowed', 'allowed', 'allowed', 'allowed', 'denied']);
    expect(verdicts(['script'])).toEqual(['allowed', 'allowed', 'allowed', 'allowed', 'denied']);
    expect(verdicts(['script.execute.runner'])).toEqual(['allowed', 'denied', 'denied', 'denied', 'denied']);
    expect(verdicts([`script.execute.route.${ID}`])).toEqual(['denied', 'denied', 'allowed', 'denied', 'denied']);
    expect(verdicts(['script.execute.route', 'view.execute.c_v'])).toEqual([
      'denied',
      'allowed',
      'allowed',
      'denied',
      'allowed',
    ]);
    expect(evaluateBatch(['script.*'], [exec('route', 'c_sync')])[0]?.decision?.matchedChain).toBe('script.*');
  });

  it('reports execute rows that are not requests', () => {
    expect(rowRequest(exec('runner', 'c_x'))).toMatchObject({ ok: false, problem: 'runner takes no identifier' });
    expect(rowRequest(exec('account'))).toMatchObject({ ok: false });
    expect(rowRequest(exec('view'))).toMatchObject({ ok: false });
    expect(rowRequest(exec('route', 'bad id'))).toMatchObject({ ok: false });
    expect(rowRequest({ ...exec('route'), propertyPath: 'name' })).toMatchObject({ ok: false });
    expect(rowRequest(exec('route', ID.toUpperCase()))).toEqual({
      ok: true,
      request: { kind: 'script', action: 'route', identifier: ID },
    });
  });
});

describe('decodeTokenScope', () => {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const jwt = (payload: unknown) => `${encode({ alg: 'PS512' })}.${encode(payload)}.c2ln`;

  it('reads service/scp, service/rls and the subject', () => {
    expect(
      decodeTokenScope(`Bearer ${jwt({ 'service/scp': ['script.execute'], 'service/rls': [ID], sub: ID, exp: 5 })}`),
    ).toEqual({ ok: true, token: { scopes: ['script.execute'], roles: [ID], subject: ID, expires: 5 } });
  });

  it('decodes UTF-8 payloads', () => {
    const decoded = decodeTokenScope(jwt({ 'service/scp': ['object.read.c_ü'] }));
    expect(decoded.ok && decoded.token.scopes).toEqual(['object.read.c_ü']);
  });

  it('refuses what is not a JWT or has malformed claims', () => {
    expect(decodeTokenScope('abc')).toMatchObject({ ok: false });
    expect(decodeTokenScope('a.%%%.c')).toMatchObject({ ok: false });
    expect(decodeTokenScope(`${encode({})}.${Buffer.from('not json').toString('base64url')}.x`)).toMatchObject({
      ok: false,
    });
    expect(decodeTokenScope(jwt({ 'service/scp': 'script.execute' }))).toMatchObject({ ok: false });
  });
});

describe('typeChoices', () => {
  it('offers the org’s types for object operations and what runs for execute', () => {
    expect(typeChoices('read', 'account', ['c_conversation', 'account'])).toEqual(['account', 'c_conversation']);
    expect(typeChoices('execute', 'route', ['account'])).toEqual(['runner', 'route', 'script', 'view', 'deployment']);
  });

  it('keeps a value the list lacks (a loaded test case, a subtype) first, so it is not lost', () => {
    expect(typeChoices('read', 'c_note#c_memo', ['account', 'c_note'])).toEqual(['c_note#c_memo', 'account', 'c_note']);
    expect(typeChoices('execute', 'account', ['account'])[0]).toBe('account');
  });
});
