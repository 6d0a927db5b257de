import { describe, expect, it } from 'vitest';
import type { ServiceApp } from '../../api/apps';
import {
  draftFromApp,
  draftToSettings,
  emptyDraft,
  faultsByField,
  isIpOrCidr,
  isMaskedSecret,
  isOrigin,
  maskSecret,
  settingsPatch,
  splitSecret,
  validateAppDraft,
} from './app-form';

const SECRET = 'A'.repeat(60) + 'wxyz';

function app(overrides: Partial<ServiceApp> = {}): ServiceApp {
  return {
    object: 'app',
    key: 'K2QivOVnvfmngPYlza97Jy',
    kind: 'signing',
    label: 'Mobile',
    enabled: true,
    readOnly: false,
    expires: null,
    authDuration: 900,
    csrf: true,
    allowUnsigned: false,
    requireSignatureV2: false,
    principalOverride: false,
    principalId: null,
    maxTokensPerPrincipal: 10,
    expose: false,
    alg: 'PS512',
    corsOrigins: [],
    ipAllow: [],
    ipDeny: [],
    hasSecret: true,
    secret: '••••…wxyz',
    rsa: { kid: 'kid1', alg: 'PS512', created: '2026-01-01T00:00:00.000Z' },
    created: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('secret masking', () => {
  it('masks like the service: the mask and the last four characters', () => {
    expect(maskSecret(SECRET)).toBe('••••…wxyz');
    expect(isMaskedSecret('••••…wxyz')).toBe(true);
    expect(isMaskedSecret(null)).toBe(true);
    expect(isMaskedSecret(SECRET)).toBe(false);
  });

  it('splits a full secret out of the app so only the dialog holds it', () => {
    const { app: kept, secret } = splitSecret(app({ secret: SECRET }));
    expect(secret).toBe(SECRET);
    expect(kept.secret).toBe('••••…wxyz');
    expect(JSON.stringify(kept)).not.toContain(SECRET);
  });

  it('leaves an already masked or absent secret alone', () => {
    expect(splitSecret(app()).secret).toBeNull();
    expect(splitSecret(app({ kind: 'session', hasSecret: false, secret: null })).secret).toBeNull();
  });
});

describe('validateAppDraft', () => {
  it('accepts the defaults with a label', () => {
    expect(validateAppDraft({ ...emptyDraft(), label: 'Web' }, 'session')).toEqual({});
  });

  it('reports each field in words', () => {
    const errors = validateAppDraft(
      {
        ...emptyDraft(),
        label: ' ',
        authDuration: '59',
        maxTokensPerPrincipal: '101',
        principalId: 'someone',
        corsOrigins: 'https://ok.example\nhttps://bad.example/path',
        ipAllow: '10.0.0.0/8\n300.1.1.1',
        ipDeny: '::1\n2001:db8::/129',
        allowUnsigned: true,
      },
      'session',
    );
    expect(Object.keys(errors).sort()).toEqual(
      [
        'allowUnsigned',
        'authDuration',
        'corsOrigins',
        'ipAllow',
        'ipDeny',
        'label',
        'maxTokensPerPrincipal',
        'principalId',
      ].sort(),
    );
    expect(errors.corsOrigins).toContain('https://bad.example/path');
  });

  it('allows signing-only settings on signing apps', () => {
    expect(
      validateAppDraft({ ...emptyDraft(), label: 'x', allowUnsigned: true, principalOverride: true }, 'signing'),
    ).toEqual({});
  });

  it('knows origins and addresses', () => {
    expect(isOrigin('http://localhost:3000')).toBe(true);
    expect(isOrigin('https://example.org/')).toBe(false);
    expect(isIpOrCidr('192.168.1.0/24')).toBe(true);
    expect(isIpOrCidr('fe80::1')).toBe(true);
    expect(isIpOrCidr('10.0.0.1/33')).toBe(false);
    expect(isIpOrCidr('example.org')).toBe(false);
  });
});

describe('settingsPatch', () => {
  it('sends only what changed, never alg', () => {
    const current = app({ corsOrigins: ['https://a.example'] });
    const draft = {
      ...draftFromApp(current),
      authDuration: '1200',
      corsOrigins: 'https://a.example\nhttps://b.example',
      alg: 'RS512' as const,
    };
    expect(settingsPatch(current, draftToSettings(draft, 'signing'))).toEqual({
      authDuration: 1200,
      corsOrigins: ['https://a.example', 'https://b.example'],
    });
  });

  it('round-trips an unchanged app to an empty patch (expires included)', () => {
    const current = app({ expires: '2030-05-01T10:20:33.000Z', principalId: '0123456789abcdef01234567' });
    expect(settingsPatch(current, draftToSettings(draftFromApp(current), 'signing'))).toEqual({});
  });

  it('clears expires with null', () => {
    const current = app({ expires: '2030-05-01T10:20:00.000Z' });
    expect(settingsPatch(current, draftToSettings({ ...draftFromApp(current), expires: '' }, 'signing'))).toEqual({
      expires: null,
    });
  });
});

describe('app name and name mapping', () => {
  const valid = { ...emptyDraft(), label: 'Patients' };
  it('checks the name as the service does: an identifier, never key-shaped', () => {
    expect(validateAppDraft({ ...valid, name: 'c_patient_app' }, 'session')).toEqual({});
    expect(validateAppDraft({ ...valid, name: '' }, 'session')).toEqual({});
    expect(validateAppDraft({ ...valid, name: '1abc' }, 'session').name).toMatch(/^A letter/);
    expect(validateAppDraft({ ...valid, name: 'has space' }, 'session').name).toMatch(/^A letter/);
    expect(validateAppDraft({ ...valid, name: 'K2QivOVnvfmngPYlza97Jy' }, 'session').name).toMatch(/key/);
  });

  it('sends a new name and the mapping, and removes a cleared name with null', () => {
    const unnamed = app();
    expect(draftFromApp(unnamed)).toMatchObject({ name: '', allowNameMapping: false });
    const named = { ...draftFromApp(unnamed), name: ' c_patient_app ', allowNameMapping: true };
    expect(settingsPatch(unnamed, draftToSettings(named, 'signing'))).toEqual({
      name: 'c_patient_app',
      allowNameMapping: true,
    });
    const current = app({ name: 'c_patient_app', allowNameMapping: true });
    expect(settingsPatch(current, draftToSettings(draftFromApp(current), 'signing'))).toEqual({});
    expect(settingsPatch(current, draftToSettings({ ...draftFromApp(current), name: '' }, 'signing'))).toEqual({
      name: null,
    });
  });

  it("puts the service's name conflict on the name field", () => {
    const conflict = {
      object: 'fault' as const,
      name: 'validation',
      code: 'kValidationError',
      errCode: 'service.validation.conflict',
      status: 400,
      message: 'Another application of the org is named c_x.',
      reason: 'Another application of the org is named c_x.',
      path: 'name',
    };
    expect(faultsByField(conflict as never)).toEqual({ fields: { name: conflict.reason }, unplaced: false });
  });
});

describe('faultsByField', () => {
  it('puts child faults on their fields', () => {
    const child = (path: string, reason: string) => ({
      object: 'fault' as const,
      name: 'validation',
      code: 'kValidationError',
      errCode: 'service.validation.invalidValue',
      status: 400,
      message: reason,
      reason,
      path,
    });
    const result = faultsByField({
      ...child('', 'The application settings are not valid.'),
      errCode: 'service.validation',
      path: undefined,
      faults: [child('corsOrigins[1]', 'bad origin'), child('authDuration', 'out of range'), child('nope', 'unknown')],
    } as never);
    expect(result.fields).toEqual({ corsOrigins: 'bad origin', authDuration: 'out of range' });
    expect(result.unplaced).toBe(true);
  });
});
