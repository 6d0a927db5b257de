import { describe, expect, it } from 'vitest';
import type { TestRow } from './batch';
import { serviceRequestFor, tokenScopes, verdictFromResponse } from './service-check';

const ID = '0123456789abcdef01234567';
const row = (over: Partial<TestRow>): TestRow => ({
  operation: 'read',
  objectType: 'account',
  instanceId: '',
  propertyPath: '',
  ...over,
});
const collectionOf = (name: string) => ({ account: 'accounts', c_thing: 'c_things' })[name];

describe('serviceRequestFor', () => {
  it('does not send execute rows (running a script to test a scope would have effects)', () => {
    expect(serviceRequestFor(row({ operation: 'execute', objectType: 'runner' }), collectionOf)).toEqual({
      ok: false,
      reason: 'executions are decided here only; not sent',
    });
  });

  it('reads one instance or a list of one, patches {} for update', () => {
    expect(serviceRequestFor(row({ instanceId: ID }), collectionOf)).toEqual({
      ok: true,
      request: { method: 'GET', path: `accounts/${ID}` },
    });
    expect(serviceRequestFor(row({}), collectionOf)).toEqual({
      ok: true,
      request: { method: 'GET', path: 'accounts?limit=1' },
    });
    expect(
      serviceRequestFor(row({ operation: 'update', objectType: 'c_thing', instanceId: ID }), collectionOf),
    ).toEqual({
      ok: true,
      request: { method: 'PATCH', path: `c_things/${ID}`, body: {} },
    });
  });

  it('never sends what would change data or cannot be asked', () => {
    expect(serviceRequestFor(row({ operation: 'create' }), collectionOf)).toMatchObject({ ok: false });
    expect(serviceRequestFor(row({ operation: 'delete', instanceId: ID }), collectionOf)).toMatchObject({ ok: false });
    expect(serviceRequestFor(row({ operation: 'update' }), collectionOf)).toMatchObject({ ok: false });
    expect(serviceRequestFor(row({ objectType: 'c_nothing' }), collectionOf)).toMatchObject({ ok: false });
  });
});

describe('verdictFromResponse', () => {
  const fault = (errCode: string) => ({ object: 'fault', errCode, message: 'Access denied.', reason: 'why' });

  it('reads scope refusals as denied and other answers as allowed', () => {
    expect(verdictFromResponse(row({}), 403, fault('service.accessDenied.scope'))).toMatchObject({
      verdict: 'denied',
      detail: 'why',
    });
    expect(verdictFromResponse(row({}), 200, { object: 'list', data: [] })).toMatchObject({ verdict: 'allowed' });
    expect(verdictFromResponse(row({ instanceId: ID }), 404, fault('service.notFound.instance')).verdict).toBe(
      'allowed',
    );
    expect(verdictFromResponse(row({}), 500, fault('service.error')).verdict).toBe('error');
  });

  it('looks for the property in a property-limited read', () => {
    const body = { _id: ID, object: 'account', name: { first: 'A' } };
    expect(verdictFromResponse(row({ propertyPath: 'name.first' }), 200, body).verdict).toBe('allowed');
    expect(verdictFromResponse(row({ propertyPath: 'email' }), 200, body).verdict).toBe('denied');
    expect(
      verdictFromResponse(row({ propertyPath: 'name' }), 200, { object: 'list', data: [body], hasMore: false }).verdict,
    ).toBe('allowed');
  });
});

describe('tokenScopes', () => {
  it('keeps valid chains once', () => {
    expect(tokenScopes(['script.execute', 'object.read.account.name', 'script.execute'])).toEqual(['script.execute']);
  });
});
