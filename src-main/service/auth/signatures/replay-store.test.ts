import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultError } from '../../../../src-shared/faults.js';
import { openDatabase, type Db } from '../../db/open.js';
import { MAX_REPLAY_NONCES_PER_APP, ReplayStore } from './replay-store.js';

const NOW = 1_700_000_000_000;
const LATER = NOW + 15 * 60_000;

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'replay-test-'));
  db = openDatabase({ file: join(dir, 'service.db') });
});
afterEach(() => {
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

  it('bounds each app at a named limit', () => {
    expect(MAX_REPLAY_NONCES_PER_APP).toBe(100_000);
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
