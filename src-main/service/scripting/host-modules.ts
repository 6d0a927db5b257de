/**
 * Host functions behind the script modules `config`, `cache`, `counters`, `crypto` and
 * `notifications` (prelude/host-modules.ts). Trust boundary: every argument comes from a script;
 * keys, sizes and algorithms are checked here, each org has its own values, and nothing here
 * reaches another org.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { OrgConfigStore, checkKey } from './org-config.js';
import { orgCache } from './org-cache.js';

const ALGORITHMS = new Set(['md5', 'sha1', 'sha256', 'sha384', 'sha512']);
const ENCODINGS = new Set(['hex', 'base64', 'base64url', 'latin1']);
const MAX_DIGEST_INPUT = 4 * 1024 * 1024;

export function moduleHost(svc: Service, org: Org) {
  const config = new OrgConfigStore(svc, org);
  const cache = orgCache(svc, org.id);
  return {
    'config.get': (path: unknown) => config.get(path),
    'config.set': (key: unknown, value: unknown) => config.set(key, value),
    'config.keys': () => config.keys(),
    'counters.next': (key: unknown) => config.counter(key, 1),
    'counters.get': (key: unknown) => config.counterValue(key),
    'counters.del': (key: unknown) => config.deleteCounters(checkKey(key), false) > 0,
    'counters.clear': (prefix: unknown) => config.deleteCounters(String(prefix ?? ''), true),
    'counters.list': (prefix: unknown) => {
      const data = Object.entries(config.counters())
        .filter(([key]) => key.startsWith(String(prefix ?? '')))
        .map(([key, val]) => ({ key, val }));
      return { object: 'list', data, hasMore: false };
    },
    'cache.get': (key: unknown) => cache.get(checkKey(key), svc.clock.now()) ?? null,
    'cache.has': (key: unknown) => cache.get(checkKey(key), svc.clock.now()) !== undefined,
    'cache.set': (key: unknown, value: unknown, ttl: unknown) => cache.set(checkKey(key), value, ttl, svc.clock.now()),
    'cache.del': (key: unknown) => cache.delete(checkKey(key)),
    'cache.list': (prefix: unknown) => cache.keys(String(prefix ?? ''), svc.clock.now()),
    'cache.clear': (prefix: unknown) => cache.clear(String(prefix ?? '')),
    'crypto.digest'(alg: unknown, key: unknown, data: unknown, encoding: unknown) {
      const a = String(alg).toLowerCase();
      const enc = String(encoding);
      if (!ALGORITHMS.has(a))
        throw fault('invalidArgument', 'crypto', { reason: `Unsupported digest ${String(alg)}.` });
      if (!ENCODINGS.has(enc)) throw fault('invalidArgument', 'crypto', { reason: `Unsupported encoding ${enc}.` });
      if (typeof data !== 'string' || data.length > MAX_DIGEST_INPUT) {
        throw fault('invalidArgument', 'crypto', { reason: 'Digest input is a string of at most 4 MiB.' });
      }
      const h = typeof key === 'string' ? createHmac(a, key) : createHash(a);
      return h.update(data).digest(enc as 'hex');
    },
    'crypto.random'(n: unknown) {
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 1024) {
        throw fault('invalidArgument', 'crypto', { reason: 'randomBytes(n) takes 1 to 1024 bytes.' });
      }
      const bytes = randomBytes(n);
      return { length: n, hex: bytes.toString('hex'), base64: bytes.toString('base64') };
    },
    'crypto.uuid': () => randomUUID(),
    'notifications.send'(name: unknown, variables: unknown, options: unknown) {
      const o = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
      const recipient = typeof o.recipient === 'string' ? o.recipient : typeof o.to === 'string' ? o.to : '';
      if (recipient === '' || recipient.length > 254) {
        throw fault('invalidArgument', 'notifications', {
          reason: 'send(name, variables, {recipient}) needs a recipient.',
        });
      }
      const subject = typeof o.subject === 'string' ? o.subject : String(name ?? 'Notification');
      const body = JSON.stringify(variables ?? null);
      if (body.length > 64 * 1024) throw fault('tooLarge', 'notifications', { reason: 'At most 64 KiB of variables.' });
      svc.outbox.add(
        org.id,
        { kind: 'notification', recipient, subject: subject.slice(0, 200), body },
        svc.clock.now(),
      );
      return true;
    },
  };
}
