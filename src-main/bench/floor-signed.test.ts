/**
 * The authenticating floor must do the work docs/signing.md requires of a signed request, or the
 * ratio against it means nothing: accept the version-1 and version-2 signatures the service
 * accepts, and refuse a replayed nonce (also from a second process on the same nonce store), a wrong
 * signature, a signature over another query (version 2) and a stale timestamp.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signRequest } from '../service/auth/signatures/signature.js';
import { nonceStoreFile, parseSigningKeys, signedChecker } from './floor-signed.js';

const dir = mkdtempSync(join(tmpdir(), 'floor-signed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = nonceStoreFile(join(dir, 'service.db'));
const [KEY, SECRET] = ['benchKey123', 'a secret of the bench app'];
const check = signedChecker(file, parseSigningKeys(`${KEY}:${SECRET}`));

let n = 0;
function headers(url: string, opts: { version?: 1 | 2; ts?: number; nonce?: string; signedUrl?: string } = {}) {
  const ts = opts.ts ?? Date.now();
  const nonce = opts.nonce ?? `nonce${String(n++).padStart(11, '0')}`;
  const signature = signRequest({
    apiKey: KEY,
    apiSecret: SECRET,
    url: opts.signedUrl ?? url,
    method: 'GET',
    timestampMs: ts,
    nonce,
    version: opts.version ?? 1,
  });
  return {
    'service-client-key': KEY,
    'service-client-signature': signature,
    'service-client-timestamp': String(ts),
    'service-client-nonce': nonce,
    ...(opts.version === 2 ? { 'service-client-signature-version': '2' } : {}),
  };
}

describe("the floor's signed-request check", () => {
  const url = '/demo/v2/q1?where=%7B%7D&limit=100';
  it('accepts what the service accepts, versions 1 and 2', () => {
    expect(check(headers(url), '/q1', url)).toBe(true);
    expect(check(headers(url, { version: 2 }), '/q1', url)).toBe(true);
  });

  it('refuses a replayed nonce, here and in another process on the same nonce store', () => {
    const h = headers(url, { version: 2 });
    expect(check(h, '/q1', url)).toBe(true);
    expect(check(h, '/q1', url)).toBe(false);
    const other = signedChecker(file, parseSigningKeys(`${KEY}:${SECRET}`));
    expect(other(h, '/q1', url)).toBe(false);
  });

  it('refuses a wrong signature, another query under version 2, a stale timestamp and an unknown app', () => {
    expect(check({ ...headers(url), 'service-client-signature': 'f'.repeat(64) }, '/q1', url)).toBe(false);
    expect(check(headers(url, { version: 2, signedUrl: '/demo/v2/q1?limit=1' }), '/q1', url)).toBe(false);
    expect(check(headers(url, { ts: Date.now() - 16 * 60_000 }), '/q1', url)).toBe(false);
    expect(check({ ...headers(url), 'service-client-key': 'unknown' }, '/q1', url)).toBe(false);
    expect(check(headers(url), '/q2', url)).toBe(false); // signed for another command
  });
});
