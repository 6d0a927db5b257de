import { describe, expect, it } from 'vitest';
import { decodeJwt, explainClaims, formatDuration, timeVerdict, unixToIso } from './claims';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const HEADER = { alg: 'PS512', kid: 'abc', typ: 'JWT' };
const PAYLOAD = {
  'service/scp': ['object.read.account.*.name'],
  'service/cnt': 3,
  'service/gnt': 5,
  'service/skp': true,
  iss: 'K2QivOVnvfmngPYlza97Jy',
  sub: '01a1fd379d9700669a175aac',
  aud: 'http://127.0.0.1/demo/v2',
  iat: 1_795_249_650,
  nbf: 1_795_249_950,
  exp: 1_795_250_850,
  jti: 'tzKlk3aG5wbRPvJESTWAHA',
};
const TOKEN = `${b64(HEADER)}.${b64(PAYLOAD)}.c2ln`;

describe('decodeJwt', () => {
  it('decodes header and payload (a Bearer prefix and whitespace are ignored)', () => {
    const decoded = decodeJwt(`  Bearer ${TOKEN}\n`);
    expect(decoded).toMatchObject({ ok: true, header: HEADER, payload: PAYLOAD });
  });

  it('says what is wrong with text that is not a JWT', () => {
    expect(decodeJwt('')).toEqual({ ok: false, reason: 'Paste a token.' });
    expect(decodeJwt('a.b')).toMatchObject({ ok: false, reason: expect.stringContaining('three parts') });
    expect(decodeJwt(`${b64(HEADER)}.!!!.x`)).toMatchObject({ ok: false, reason: expect.stringContaining('payload') });
    expect(decodeJwt(`${b64([1])}.${b64(PAYLOAD)}.x`)).toMatchObject({
      ok: false,
      reason: 'The header is not a JSON object.',
    });
    expect(decodeJwt(`${b64(HEADER)}.${b64(PAYLOAD)}.`)).toMatchObject({ ok: false });
  });
});

describe('explainClaims', () => {
  const explained = explainClaims(HEADER, PAYLOAD);
  const of = (claim: string) => explained.find((e) => e.claim === claim);

  it('explains every header field and claim', () => {
    expect(explained.map((e) => e.claim)).toEqual([...Object.keys(HEADER), ...Object.keys(PAYLOAD)]);
    expect(of('alg')?.meaning).toContain('RSA-PSS');
    expect(of('sub')?.meaning).toContain('account');
    expect(of('iss')?.meaning).toContain('application');
  });

  it('shows times as dates, with the delay and the lifetime', () => {
    expect(of('iat')?.date).toBe(unixToIso(PAYLOAD.iat));
    expect(of('nbf')?.meaning).toContain('5 min after it was issued');
    expect(of('exp')?.meaning).toContain('15 min from nbf');
  });

  it('explains the service claims in words', () => {
    expect(of('service/cnt')?.meaning).toContain('at most 3 times');
    expect(of('service/gnt')?.meaning).toContain('level 5 (update)');
    expect(of('service/skp')?.meaning).toContain('regardless of access control');
    expect(of('service/scp')?.meaning).toContain('this chain');
    expect(of('service/scp')?.group).toBe('service');
  });

  it('says what absent exp and jti mean', () => {
    const { exp: _exp, jti: _jti, ...rest } = PAYLOAD;
    const claims = explainClaims(HEADER, rest);
    expect(claims.find((e) => e.claim === 'exp')?.meaning).toContain('permanent');
    expect(claims.find((e) => e.claim === 'jti')?.meaning).toContain('ephemeral');
  });

  it('flags what the service would not sign', () => {
    expect(explainClaims({ alg: 'none' }, { iat: 'yesterday' }).filter((e) => e.warning)).toHaveLength(2);
  });
});

describe('timeVerdict', () => {
  it('judges nbf inclusive and exp exclusive', () => {
    expect(timeVerdict(PAYLOAD, (PAYLOAD.nbf - 1) * 1000)).toEqual({ state: 'notYetValid', seconds: 1 });
    expect(timeVerdict(PAYLOAD, PAYLOAD.nbf * 1000)).toEqual({ state: 'valid', secondsLeft: 900 });
    expect(timeVerdict(PAYLOAD, PAYLOAD.exp * 1000)).toEqual({ state: 'expired', seconds: 0 });
    expect(timeVerdict({ iat: 1 }, 5_000)).toEqual({ state: 'valid', secondsLeft: null });
  });

  it('formats spans for people', () => {
    expect(formatDuration(40)).toBe('40 s');
    expect(formatDuration(900)).toBe('15 min');
    expect(formatDuration(7500)).toBe('2 h 5 min');
    expect(formatDuration(3 * 86_400 + 4 * 3600)).toBe('3 d 4 h');
  });
});
