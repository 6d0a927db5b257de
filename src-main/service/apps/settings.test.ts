import { describe, expect, it } from 'vitest';
import { FaultError, type FaultBody } from '../../../src-shared/faults.js';
import { validateAppSettings } from './settings.js';

function faultOf(body: unknown, kind: 'session' | 'signing' = 'signing'): FaultBody {
  try {
    validateAppSettings(body, kind);
  } catch (err) {
    if (err instanceof FaultError) return err.fault;
    throw err;
  }
  throw new Error('expected a fault');
}

describe('validateAppSettings', () => {
  it.each([
    ['label', '  Lab  ', 'Lab'],
    ['enabled', false, false],
    ['readOnly', true, true],
    ['expires', '2030-06-01', '2030-06-01T00:00:00.000Z'],
    ['expires', null, null],
    ['authDuration', 60, 60],
    ['authDuration', 86_400, 86_400],
    ['csrf', false, false],
    ['allowUnsigned', true, true],
    ['principalOverride', true, true],
    ['principalId', '0123456789abcdef01234567', '0123456789abcdef01234567'],
    ['principalId', null, null],
    ['maxTokensPerPrincipal', 0, 0],
    ['maxTokensPerPrincipal', 100, 100],
    ['expose', true, true],
    ['alg', 'RS512', 'RS512'],
    [
      'corsOrigins',
      ['https://a.example', 'https://a.example', 'http://localhost:8080'],
      ['https://a.example', 'http://localhost:8080'],
    ],
    [
      'ipAllow',
      ['10.0.0.0/8', '::1', 'fe80::/10', '192.168.1.1/32'],
      ['10.0.0.0/8', '::1', 'fe80::/10', '192.168.1.1/32'],
    ],
    ['ipDeny', [], []],
  ])('accepts %s = %j', (name, value, stored) => {
    expect(validateAppSettings({ [name]: value }, 'signing')).toEqual({ [name]: stored });
  });

  it.each([
    ['label', 7, 'invalidType'],
    ['label', 'x'.repeat(101), 'outOfRange'],
    ['enabled', 'false', 'invalidType'],
    ['expires', '01/02/2030', 'invalidValue'],
    ['expires', '2030-13-45', 'invalidValue'],
    ['authDuration', 59, 'outOfRange'],
    ['authDuration', 86_401, 'outOfRange'],
    ['authDuration', 900.5, 'invalidType'],
    ['authDuration', '900', 'invalidType'],
    ['maxTokensPerPrincipal', -1, 'outOfRange'],
    ['maxTokensPerPrincipal', 101, 'outOfRange'],
    ['principalId', '0123456789ABCDEF01234567', 'invalidValue'],
    ['principalId', 'someone@example.test', 'invalidValue'],
    ['alg', 'HS256', 'invalidValue'],
    ['corsOrigins', 'https://a.example', 'invalidType'],
    ['corsOrigins', Array(101).fill('https://a.example'), 'invalidType'],
    ['corsOrigins', ['*'], 'invalidValue'],
    ['corsOrigins', ['https://a.example/'], 'invalidValue'],
    ['corsOrigins', ['ftp://a.example'], 'invalidValue'],
    ['ipAllow', ['10.0.0.0/33'], 'invalidValue'],
    ['ipAllow', ['::1/129'], 'invalidValue'],
    ['ipAllow', ['10.0.0.1/8/1'], 'invalidValue'],
    ['ipDeny', ['example.org'], 'invalidValue'],
    ['ipDeny', [42], 'invalidValue'],
    ['secret', 'x', 'unknownProperty'],
    ['__proto__', {}, 'unknownProperty'],
  ])('refuses %s = %j (%s)', (name, value, detail) => {
    const body = JSON.parse(JSON.stringify({ [name]: value })) as unknown; // own __proto__ key, as JSON gives it
    const f = faultOf(body);
    expect(f.errCode).toBe('service.validation');
    expect(f.faults).toHaveLength(1);
    expect(f.faults![0]!.errCode).toBe(`service.validation.${detail}`);
    expect(f.faults![0]!.path).toMatch(new RegExp(`^${name}`));
  });

  it('refuses signing-only settings on session apps, but accepts false', () => {
    expect(faultOf({ allowUnsigned: true }, 'session').faults![0]).toMatchObject({ path: 'allowUnsigned' });
    expect(validateAppSettings({ principalOverride: false }, 'session')).toEqual({ principalOverride: false });
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'x', 3]) expect(faultOf(body).reason).toMatch(/JSON object/);
  });

  it('ignores the fields it is told to', () => {
    expect(validateAppSettings({ kind: 'signing', label: 'x' }, 'signing', ['kind'])).toEqual({ label: 'x' });
  });
});
