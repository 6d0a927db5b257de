/**
 * URL deployment targets never reach link-local or cloud metadata addresses (issue 38 Low 4).
 * Proven on the address check alone: no test sends anything to such an address.
 */
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { isRefusedAddress, refusedHostReason, refusingLookup, type ResolveAll } from './target-address.js';
import { checkDeployment } from './deployment-rules.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';

describe('isRefusedAddress', () => {
  it('refuses IPv4 link-local, cloud metadata and IPv6 link-local addresses in every spelling', () => {
    for (const address of [
      '169.254.169.254',
      '169.254.0.1',
      '169.254.255.255',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '[::ffff:a9fe:a9fe]',
      '::a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
      'fe80::1',
      'FE80::1',
      'fe80::1%eth0',
      'febf:ffff::1',
      'fd00:ec2::254',
      '[fe80::1]',
    ]) {
      expect(isRefusedAddress(address), address).toBe(true);
    }
  });

  it('allows loopback, private and public addresses, and names (checked once resolved)', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.0.0.1',
      '192.168.1.1',
      '169.253.255.255',
      '169.255.0.0',
      'fec0::1',
      'fd00::1',
      'example.test',
      '',
    ]) {
      expect(isRefusedAddress(address), address).toBe(false);
    }
  });

  it('refuses a URL naming such an address however the URL spells it', () => {
    for (const url of [
      'http://169.254.169.254/',
      'http://169.254.169.254./',
      'http://0xa9fea9fe/',
      'http://2852039166/',
      'http://169.254.43518/',
      'http://[::ffff:169.254.169.254]:8080/',
      'http://[fe80::1]/',
    ]) {
      expect(refusedHostReason(new URL(url).hostname), url).toMatch(/link-local/);
    }
    expect(refusedHostReason(new URL('http://127.0.0.1:7788/').hostname)).toBeUndefined();
  });
});

describe('refusingLookup', () => {
  const resolving =
    (addresses: LookupAddress[]): ResolveAll =>
    (_host, _options, callback) =>
      callback(null, addresses);
  const lookupOf = (addresses: LookupAddress[], all: boolean) =>
    new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      refusingLookup(resolving(addresses))('target.test', { all }, (err, address) => resolve({ err, address })),
    );

  it('refuses a name when any address it resolves to is refused', async () => {
    for (const all of [true, false]) {
      const { err } = await lookupOf(
        [
          { address: '127.0.0.1', family: 4 },
          { address: '169.254.169.254', family: 4 },
        ],
        all,
      );
      expect(err?.message).toContain('refused address');
      expect((await lookupOf([{ address: 'fe80::1', family: 6 }], all)).err).not.toBeNull();
      expect((await lookupOf([], all)).err).not.toBeNull();
    }
  });

  it('answers the addresses of a name that resolves only to allowed ones, in the form asked for', async () => {
    const addresses = [{ address: '127.0.0.1', family: 4 }];
    expect(await lookupOf(addresses, true)).toEqual({ err: null, address: addresses });
    expect(await lookupOf(addresses, false)).toEqual({ err: null, address: '127.0.0.1' });
  });
});

describe('a URL target naming a refused address', () => {
  it('is refused when saved (no request is made to check it)', () => {
    const org = { id: 1, code: 'demo' } as Org;
    const svc = { orgs: { byCode: () => org } } as unknown as Service;
    const doc = (targetUrl: string) => ({
      name: 'to_metadata',
      targetKind: 'url',
      targetUrl,
      targetOrg: 'prod',
      targetAppKey: 'abc',
      targetSecret: 'x'.repeat(64),
      manifest: '{}',
    });
    for (const url of ['http://169.254.169.254', 'http://[fe80::1]:7788', 'https://[::ffff:169.254.169.254]']) {
      expect(() => checkDeployment(svc, org, doc(url)), url).toThrow(/link-local/);
    }
    expect(() => checkDeployment(svc, org, doc('http://127.0.0.1:7788'))).not.toThrow();
  });
});
