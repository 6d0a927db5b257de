import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultError } from '../../../../src-shared/faults.js';
import { openDatabase, type Db } from '../../db/open.js';
import { MAX_REPLAY_NONCES_PER_APP, REPLAY_PRUNE_INTERVAL_MS, ReplayStore } from './replay-store.js';

const NOW = 1_700_000_000_000;
const LATER = NOW + 15 * 60_000;

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'replay-test-'));
  db = openDatabase({ file: join(dir, 'service.db') });
});
const restoreLater: (() => void)[] = [];
afterEach(() => {
  for (const restore of restoreLater.splice(0)) restore();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ReplayStore', () => {
  it('accepts a nonce once, then refuses it in any letter case', () => {
    const store = new ReplayStore(db);
    expect(store.remember(1, 'abcdefghijklmnop', NOW, LATER)).toBe('fresh');
    expect(store.remember(1, 'abcdefghijklmnop', NOW, LATER)).toBe('replayed');
    expect(store.remember(1, 'ABCDEFGHIJKLMNOP', NOW, LATER)).toBe('replayed');
  });

  it('remembers nonces only (no signatures: two requests may share one)', () => {
    const store = new ReplayStore(db);
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    store.remember(1, 'bbbbbbbbbbbbbbbb', NOW, LATER);
    expect(store.liveRows()).toBe(2);
    expect(db.prepare("SELECT count(*) AS n FROM replay_entries WHERE kind <> 'nonce'").get()).toEqual({ n: 0 });
  });

  it('scopes entries by app', () => {
    const store = new ReplayStore(db);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('fresh');
    expect(store.remember(2, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('fresh');
    // App 1's range does not take in app 10 or 11.
    store.remember(10, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    expect(store.liveNonces(1)).toBe(1);
  });

  it('keeps an entry through its expiry instant and forgets it 1 ms later', () => {
    const store = new ReplayStore(db);
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', LATER, LATER + 1)).toBe('replayed');
    expect(store.prune(LATER)).toBe(0);
    expect(store.prune(LATER + 1)).toBe(1);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', LATER + 1, LATER + 2)).toBe('fresh');
  });

  it('survives closing and reopening the database', () => {
    new ReplayStore(db).remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    db.close();
    db = openDatabase({ file: join(dir, 'service.db') });
    expect(new ReplayStore(db).remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('replayed');
  });

  it('lets exactly one of two connections record the same nonce', () => {
    const other = openDatabase({ file: join(dir, 'service.db') });
    try {
      const a = new ReplayStore(db).remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
      const b = new ReplayStore(other).remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
      expect([a, b].sort()).toEqual(['fresh', 'replayed']);
    } finally {
      other.close();
    }
  });

  it("refuses an app's new nonces when its share is full, leaves other apps alone, and recovers", () => {
    const store = new ReplayStore(db, 3);
    for (let i = 0; i < 3; i++) {
      expect(store.remember(1, `nonce${i}`.padEnd(16, 'x'), NOW, LATER + i)).toBe('fresh');
    }
    let thrown: unknown;
    try {
      store.remember(1, 'freshnoncexxxxxx', NOW, LATER);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(FaultError);
    expect((thrown as FaultError).fault).toMatchObject({ errCode: 'service.throttled.policy', status: 429 });
    expect((thrown as FaultError).fault.reason).toMatch(/replay window/);
    // Another app still has its whole share.
    for (let i = 0; i < 3; i++) expect(store.remember(2, `other${i}`.padEnd(16, 'x'), NOW, LATER)).toBe('fresh');
    // Every earlier entry is still there.
    expect(store.liveRows()).toBe(6);
    expect(store.remember(1, 'nonce0xxxxxxxxxx', LATER + 1, LATER + 2)).toBe('fresh');
  });

  it("keeps each app's count equal to its rows through inserts, replays, prunes and forgetting", () => {
    const store = new ReplayStore(db);
    for (let i = 0; i < 5; i++) store.remember(1, `a${i}`.padEnd(16, 'x'), NOW, LATER + i);
    for (let i = 0; i < 3; i++) store.remember(2, `b${i}`.padEnd(16, 'x'), NOW, LATER);
    store.remember(1, 'a0'.padEnd(16, 'x'), NOW, LATER);
    const agree = () => {
      for (const app of [1, 2]) expect(store.countedNonces(app)).toBe(store.liveNonces(app));
    };
    agree();
    expect(store.countedNonces(1)).toBe(5);
    store.prune(LATER + 2); // a0, a1 and all of app 2 end
    agree();
    expect(store.countedNonces(1)).toBe(3);
    store.forgetApp(1);
    agree();
    expect(store.countedNonces(1)).toBe(0);
  });

  it('takes over an expired nonce that was not pruned yet (no false replay)', () => {
    const store = new ReplayStore(db);
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, NOW + 10);
    // Within the prune interval: the expired row is still there when the nonce comes again.
    const soon = NOW + 11;
    expect(soon - NOW).toBeLessThan(REPLAY_PRUNE_INTERVAL_MS);
    expect(store.liveRows()).toBe(1);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', soon, LATER)).toBe('fresh');
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', soon, LATER)).toBe('replayed');
    expect(store.countedNonces(1)).toBe(1);
  });

  it('does not count expired rows against a full share (no false throttling)', () => {
    const store = new ReplayStore(db, 2);
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, NOW + 10);
    store.remember(1, 'bbbbbbbbbbbbbbbb', NOW, LATER);
    // a… has expired but is still counted: the share is decided again after pruning.
    expect(store.remember(1, 'cccccccccccccccc', NOW + 11, LATER)).toBe('fresh');
    expect(() => store.remember(1, 'dddddddddddddddd', NOW + 12, LATER)).toThrow(FaultError);
    expect(store.countedNonces(1)).toBe(2);
  });

  it('records a fresh nonce with one statement when the store is warm', () => {
    const store = new ReplayStore(db);
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER); // prunes once
    // Every run of every statement, counted on better-sqlite3's Statement prototype.
    const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
    const ran: string[] = [];
    for (const method of ['get', 'all', 'run', 'iterate']) {
      const original = proto[method]!;
      proto[method] = function (this: { source: string }, ...a: unknown[]) {
        ran.push(this.source);
        return original.apply(this, a);
      };
      restoreLater.push(() => (proto[method] = original));
    }
    expect(store.remember(1, 'bbbbbbbbbbbbbbbb', NOW + 1, LATER)).toBe('fresh');
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatch(/^INSERT INTO replay_entries/);
  });

  it('counts the nonces already stored when the count table is added (migration 7)', () => {
    const store = new ReplayStore(db);
    store.remember(3, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    store.remember(3, 'bbbbbbbbbbbbbbbb', NOW, LATER);
    // What migration 7 runs on a database that already holds nonces.
    db.exec('DELETE FROM replay_counts');
    db.exec(
      "INSERT INTO replay_counts (app_id, n) SELECT app_id, count(*) FROM replay_entries WHERE kind = 'nonce' GROUP BY app_id",
    );
    expect(store.countedNonces(3)).toBe(2);
  });

  it('bounds each app at a named limit', () => {
    expect(MAX_REPLAY_NONCES_PER_APP).toBe(1_000_000);
  });

  it('forgets an app', () => {
    const store = new ReplayStore(db);
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    store.remember(2, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    store.forgetApp(1);
    expect(store.liveRows()).toBe(1);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('fresh');
  });
});
