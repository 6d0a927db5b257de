/**
 * `require('cache')`: per-org values with an optional time to live, in the service's memory (lost
 * on restart, as a cache may be). Bounded per org in entries and bytes; the oldest entries go first.
 */
import { fault } from '../../../src-shared/faults.js';

const MAX_ENTRIES = 10_000;
const MAX_BYTES = 16 * 1024 * 1024;
const MAX_VALUE_BYTES = 1024 * 1024;

interface Entry {
  json: string;
  expires: number;
}

export class OrgCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  get(key: string, now: number): unknown {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.delete(key);
      return undefined;
    }
    return JSON.parse(e.json) as unknown;
  }

  set(key: string, value: unknown, ttlSeconds: unknown, now: number): void {
    const json = JSON.stringify(value ?? null);
    if (json.length > MAX_VALUE_BYTES) throw fault('tooLarge', 'cache', { reason: 'A cached value is at most 1 MiB.' });
    const ttl = typeof ttlSeconds === 'number' && ttlSeconds > 0 ? ttlSeconds * 1000 : Infinity;
    this.delete(key);
    this.entries.set(key, { json, expires: now + ttl });
    this.bytes += json.length + key.length;
    for (const [k] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break;
      this.delete(k);
    }
  }

  delete(key: string): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    this.bytes -= e.json.length + key.length;
    return this.entries.delete(key);
  }

  keys(prefix: string, now: number): string[] {
    return [...this.entries.entries()].filter(([k, e]) => k.startsWith(prefix) && e.expires > now).map(([k]) => k);
  }

  clear(prefix: string): number {
    let n = 0;
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix) && this.delete(k)) n++;
    return n;
  }
}

const caches = new WeakMap<object, Map<number, OrgCache>>();

/** The cache of one org of one service (kept while the service lives). */
export function orgCache(svc: object, orgId: number): OrgCache {
  let byOrg = caches.get(svc);
  if (!byOrg) {
    byOrg = new Map();
    caches.set(svc, byOrg);
  }
  let c = byOrg.get(orgId);
  if (!c) {
    c = new OrgCache();
    byOrg.set(orgId, c);
  }
  return c;
}
