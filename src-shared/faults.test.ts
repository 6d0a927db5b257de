import { describe, expect, it } from 'vitest';
import { FAULT_CATEGORIES, makeFault, OWN_FAULT_CODES, type FaultCategory } from './faults.js';

describe('fault codes (docs/compatibility.md#requests-cookies-and-fault-codes)', () => {
  it.each([
    ['accessDenied', 'notLoggedIn', 'kNotLoggedIn', 403, 'error'],
    ['accessDenied', 'sessionExpired', 'kSessionExpired', 403, 'sessions'],
    ['accessDenied', 'loggedInElsewhere', 'kLoggedInElsewhere', 403, 'error'],
    ['accessDenied', 'csrfTokenMismatch', 'kCSRFTokenMismatch', 403, 'error'],
    ['accessDenied', 'invalidCredentials', 'kInvalidCredentials', 403, 'error'],
    ['accessDenied', 'accountLocked', 'kAccountLocked', 403, 'error'],
    ['accessDenied', 'unverifiedLocation', 'kUnverifiedLocation', 403, 'error'],
    ['accessDenied', 'invalidRequestSignature', 'kInvalidRequestSignature', 403, 'error'],
    ['invalidArgument', 'staleRequestSignature', 'kStaleRequestSignature', 400, 'error'],
    ['accessDenied', 'registration', 'kSelfRegistrationDisabled', 403, 'error'],
  ] as const)('%s.%s carries %s', (category, detail, code, status, name) => {
    expect(makeFault(category, detail)).toMatchObject({ code, status, name, errCode: `service.${category}.${detail}` });
  });

  it('every other errCode keeps its category code', () => {
    for (const [category, { code, status }] of Object.entries(FAULT_CATEGORIES)) {
      expect(makeFault(category as FaultCategory, 'somethingElse')).toMatchObject({ code, status });
      expect(makeFault(category as FaultCategory)).toMatchObject({ code, status });
    }
    expect(makeFault('accessDenied', 'scope').code).toBe('kAccessDenied');
    expect(makeFault('unsupportedOperation', 'patchOp')).toMatchObject({ code: 'kUnsupportedOperation', status: 400 });
    expect(makeFault('notImplemented')).toMatchObject({ code: 'kNotImplemented', status: 501 });
  });

  it('keys only real categories', () => {
    for (const key of Object.keys(OWN_FAULT_CODES)) expect(FAULT_CATEGORIES).toHaveProperty(key.split('.')[0]!);
  });
});
