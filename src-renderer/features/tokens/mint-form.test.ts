import { describe, expect, it } from 'vitest';
import {
  checkMintDraft,
  checkScopeChains,
  emptyMintDraft,
  isStoredToken,
  mintExclusions,
  mintFieldOfPath,
  updateMintDraft,
} from './mint-form';

const APP = 'K2QivOVnvfmngPYlza97Jy';
const NOW = Date.parse('2026-11-21T08:00:00Z');

describe('checkMintDraft', () => {
  it('builds the smallest request for the defaults: no chains, never `*` unasked', () => {
    expect(emptyMintDraft().scopeText).toBe('');
    expect(checkMintDraft(emptyMintDraft(), APP, NOW).request).toEqual({ app: APP, scope: [] });
  });

  it('validates every chain live, with the line and the parser reason', () => {
    const check = checkMintDraft(
      { ...emptyMintDraft(), scopeText: 'object.read.account.*.name\n\nobject.read.account.name\nscript' },
      APP,
      NOW,
    );
    expect(check.chains.map((c) => [c.line, c.ok])).toEqual([
      [1, true],
      [3, false],
      [4, true],
    ]);
    expect(check.errors.scope).toMatch(/^Line 3: /);
    expect(check.request).toBeUndefined();
  });

  it('refuses deployment.create, as the spec does', () => {
    expect(
      checkMintDraft({ ...emptyMintDraft(), scopeText: 'deployment.create' }, APP, NOW).errors.scope,
    ).toBeDefined();
  });

  it('sends every option', () => {
    const check = checkMintDraft(
      {
        ...emptyMintDraft(),
        scopeText: 'view.execute.my_view',
        rolesText: '000000000000000000000004, 000000000000000000000004',
        start: 'activatesIn',
        activatesIn: '2',
        activatesUnit: 'min',
        expiry: 'expiresIn',
        expiresIn: '3',
        expiresUnit: 'h',
        maxUses: '5',
        grant: '3',
        skipAcl: true,
        bypassCreateAcl: true,
      },
      APP,
      NOW,
    );
    expect(check.request).toEqual({
      app: APP,
      scope: ['view.execute.my_view'],
      roles: ['000000000000000000000004'],
      activatesIn: 120,
      expiresIn: 10_800,
      maxUses: 5,
      grant: 3,
      skipAcl: true,
      bypassCreateAcl: true,
    });
    expect(isStoredToken(check.request!)).toBe(true);
  });

  it('turns validAt into Unix seconds', () => {
    const check = checkMintDraft({ ...emptyMintDraft(), start: 'validAt', validAt: '2026-12-01T10:30' }, APP, NOW);
    expect(check.request?.validAt).toBe(Math.floor(new Date('2026-12-01T10:30').getTime() / 1000));
    expect(check.request).not.toHaveProperty('activatesIn');
  });

  it('reports bad numbers per field', () => {
    const { errors } = checkMintDraft(
      {
        ...emptyMintDraft(),
        rolesText: 'admin',
        expiry: 'expiresIn',
        expiresIn: '0',
        maxUses: '0',
        grant: '8',
        start: 'validAt',
      },
      APP,
      NOW,
    );
    expect(Object.keys(errors).sort()).toEqual(['expiresIn', 'grant', 'maxUses', 'roles', 'validAt']);
  });
});

describe('exclusions', () => {
  it('a permanent token starts now and has no expiresIn', () => {
    const draft = updateMintDraft(
      { ...emptyMintDraft(), start: 'validAt', validAt: '2026-12-01T10:30' },
      { expiry: 'permanent' },
    );
    expect(draft.start).toBe('now');
    expect(mintExclusions(draft)).toEqual({ delayedStartAllowed: false, permanentAllowed: true });
    expect(checkMintDraft(draft, APP, NOW).request).toEqual({ app: APP, scope: [], permanent: true });
  });

  it('choosing a delayed start leaves permanent', () => {
    const draft = updateMintDraft({ ...emptyMintDraft(), expiry: 'permanent' }, { start: 'activatesIn' });
    expect(draft.expiry).toBe('default');
    expect(mintExclusions(draft).permanentAllowed).toBe(false);
  });

  it('never sends activatesIn and validAt together, nor with permanent', () => {
    const forced = {
      ...emptyMintDraft(),
      start: 'activatesIn' as const,
      expiry: 'permanent' as const,
      validAt: '2026-12-01T10:30',
    };
    const request = checkMintDraft(forced, APP, NOW).request;
    expect(request).toEqual({ app: APP, scope: [], permanent: true });
  });

  it('maps service fault paths to fields', () => {
    expect(mintFieldOfPath('scope[2]')).toBe('scope');
    expect(mintFieldOfPath('roles[0]')).toBe('roles');
    expect(mintFieldOfPath('app')).toBeUndefined();
  });
});

describe('scope chains against the org schema', () => {
  const types = [{ name: 'account', collection: 'accounts', paths: ['_id', 'email'] }];
  it('refuses a chain naming a missing type, with the service’s words', () => {
    const [check] = checkScopeChains('object.read.accounts', types);
    expect(check).toMatchObject({ ok: false });
    expect(check?.reason).toContain('did you mean "account"');
    const draft = { ...emptyMintDraft(), scopeText: 'object.read.accounts' };
    expect(checkMintDraft(draft, 'app', Date.now(), types).request).toBeUndefined();
    expect(checkMintDraft(draft, 'app', Date.now()).request).toBeDefined();
  });
  it('passes chains the schema satisfies', () => {
    expect(checkScopeChains('object.read.account.*.email\n*', types).every((c) => c.ok)).toBe(true);
  });
});
