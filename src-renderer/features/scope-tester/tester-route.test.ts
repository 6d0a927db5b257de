import { describe, expect, it } from 'vitest';
import { decodeRows, encodeRows, parseTesterParams, writeTesterParams, type TesterState } from './tester-route';

describe('tester route', () => {
  it('round-trips every field', () => {
    const state: TesterState = {
      chain: 'object.read.account.*.name',
      source: 'token',
      chains: 'object.read.account\nscript.execute',
      roles: ['000000000000000000000006'],
      rows: [
        { operation: 'read', objectType: 'account', instanceId: '', propertyPath: 'name', expected: 'allowed' },
        { operation: 'update', objectType: 'c_x#y', instanceId: '0123456789abcdef01234567', propertyPath: '' },
        { operation: 'execute', objectType: 'route', instanceId: 'c_sync', propertyPath: '', expected: 'denied' },
      ],
    };
    const params = new URLSearchParams();
    writeTesterParams(state, params);
    expect(parseTesterParams(new URLSearchParams(params.toString()))).toEqual(state);
  });

  it('drops malformed rows and role ids', () => {
    expect(decodeRows('launch:account:::;read:account:::denied;read')).toEqual([
      { operation: 'read', objectType: 'account', instanceId: '', propertyPath: '', expected: 'denied' },
      { operation: 'read', objectType: '', instanceId: '', propertyPath: '' },
    ]);
    expect(parseTesterParams(new URLSearchParams('roles=nope,000000000000000000000004')).roles).toEqual([
      '000000000000000000000004',
    ]);
  });

  it('cannot smuggle separators through a field', () => {
    const rows = decodeRows(encodeRows([{ operation: 'read', objectType: 'a:b;c', instanceId: '', propertyPath: '' }]));
    expect(rows).toEqual([{ operation: 'read', objectType: 'abc', instanceId: '', propertyPath: '' }]);
  });
});
