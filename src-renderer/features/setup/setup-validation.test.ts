import { describe, expect, it } from 'vitest';
import { hasErrors, validateSetup } from './setup-validation';

const valid = { org: 'demo', email: 'admin@example.com', password: 'correct horse' };

describe('validateSetup', () => {
  it('accepts a valid form', () => {
    expect(validateSetup(valid)).toEqual({});
    expect(hasErrors(validateSetup(valid))).toBe(false);
  });

  it('rejects org codes outside ^[a-z0-9-]+$', () => {
    for (const org of ['', 'Demo', 'my org', 'acme_1', 'ünï']) {
      expect(validateSetup({ ...valid, org }).org, org).toBeDefined();
    }
    expect(validateSetup({ ...valid, org: 'acme-2' }).org).toBeUndefined();
  });

  it('needs a password of at least 8 characters that is not a common one (the service’s rule)', () => {
    expect(validateSetup({ ...valid, password: 'qz7vk3w' }).password).toBeDefined();
    expect(validateSetup({ ...valid, password: 'qz7vk3wp' }).password).toBeUndefined();
    for (const password of ['password', 'password123', '12345678']) {
      expect(validateSetup({ ...valid, password }).password, password).toMatch(/common/);
    }
  });

  it('needs something that looks like an email', () => {
    expect(validateSetup({ ...valid, email: '  ' }).email).toBeDefined();
    expect(validateSetup({ ...valid, email: 'admin' }).email).toBeDefined();
  });

  it('needs the password typed twice alike when confirmed', () => {
    expect(validateSetup({ ...valid, confirm: 'correct horse' }).confirm).toBeUndefined();
    expect(validateSetup({ ...valid, confirm: 'correct horsf' }).confirm).toMatch(/differ/);
  });
});
