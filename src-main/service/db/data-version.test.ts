import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataVersion, VersionedCache } from './data-version.js';

describe('versioned caches', () => {
  it('empty when another connection commits (seen within the staleness bound), or when this one says it wrote', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dv-'));
    try {
      const a = new Database(join(dir, 'x.db'));
      const b = new Database(join(dir, 'x.db'));
      a.exec('CREATE TABLE t (v INTEGER)');
      let now = 0;
      const versions = new DataVersion(a, 1, () => now);
      const cache = new VersionedCache<string, number>(versions);
      let loads = 0;
      const read = () => cache.get('k', () => ++loads);
      expect([read(), read()]).toEqual([1, 1]);
      b.prepare('INSERT INTO t VALUES (1)').run(); // another connection commits…
      now += 0.5;
      expect(read()).toBe(1); // …which is not looked for again within the staleness bound…
      now += 0.5;
      expect(read()).toBe(2); // …and is seen once it has passed
      a.prepare('INSERT INTO t VALUES (2)').run(); // our own write: data_version does not move…
      expect(read()).toBe(2);
      versions.bump(); // …so the repository says so
      expect(read()).toBe(3);
      a.close();
      b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
