import { describe, expect, it } from 'vitest';
import { checkMintDraft, emptyMintDraft } from './mint-form';
import { remintFromClaims, spanOf } from './remint';

const ACCOUNT = '0123456789abcdef01234567';
const APP = 'K2QivOVnvfmngPYlza97Jy';
const IAT = 1_790_000_000;

describe('remintFromClaims', () => {
  it('fills every option the claims carry, and the same request comes out', () => {
    const { draft, account, app } = remintFromClaims({
      sub: ACCOUNT,
      iss: APP,
      iat: IAT,
      exp: IAT + 2 * 3600,
      'service/scp': ['object.read.account.*.name', 'view.execute.my_view'],
      'service/rls': ['000000000000000000000006'],
      'service/cnt': 3,
      'service/gnt': 4,
      'service/skp': true,
      'service/skc': true,
    });
    expect(account).toBe(ACCOUNT);
    expect(app).toBe(APP);
    expect(checkMintDraft(draft, APP, IAT * 1000).request).toEqual({
      app: APP,
      scope: ['object.read.account.*.name', 'view.execute.my_view'],
      roles: ['000000000000000000000006'],
      expiresIn: 7200,
      maxUses: 3,
      grant: 4,
      skipAcl: true,
      bypassCreateAcl: true,
    });
    expect(draft).toMatchObject({ expiresIn: '2', expiresUnit: 'h' });
  });

  it('reads no exp as permanent, and a later nbf as a delayed start with the lifetime after it', () => {
    expect(remintFromClaims({ iat: IAT, 'service/scp': ['*'] }).draft).toMatchObject({
      expiry: 'permanent',
      start: 'now',
      scopeText: '*',
    });
    const delayed = remintFromClaims({ iat: IAT, nbf: IAT + 300, exp: IAT + 300 + 86_400 }).draft;
    expect(delayed).toMatchObject({
      start: 'activatesIn',
      activatesIn: '5',
      activatesUnit: 'min',
      expiry: 'expiresIn',
      expiresIn: '1',
      expiresUnit: 'd',
    });
  });

  it('leaves claims of the wrong shape at the defaults instead of trusting them', () => {
    const { draft, account, app } = remintFromClaims({
      sub: 'not an id',
      iss: 'has spaces',
      iat: 'yesterday',
      exp: IAT,
      'service/scp': 'object.read',
      'service/cnt': -1,
      'service/gnt': 99,
      'service/skp': 'yes',
    });
    expect(account).toBeUndefined();
    expect(app).toBeUndefined();
    expect(draft).toEqual({ ...emptyMintDraft(), expiry: 'default' });
  });
});

describe('spanOf', () => {
  it('uses the largest unit that divides the span', () => {
    expect(spanOf(86_400)).toEqual({ value: '1', unit: 'd' });
    expect(spanOf(5400)).toEqual({ value: '90', unit: 'min' });
    expect(spanOf(61)).toEqual({ value: '61', unit: 's' });
    expect(spanOf(0)).toEqual({ value: '0', unit: 's' });
  });
});
