import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultError } from '../../../../src-shared/faults.js';
import { openDatabase, type Db } from '../../db/open.js';
import { MAX_REPLAY_REQUESTS, ReplayStore } from './replay-store.js';

const NOW = 1_700_000_000_000;
const LATER = NOW + 15 * 60_000;
const sig = (n: number) => n.toString(16).padStart(64, '0');

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
  it('accepts a request once, then refuses its nonce', () => {
    const store = new ReplayStore(db);
    expect(store.remember(1, 'abcdefghijklmnop', sig(1), NOW, LATER)).toBe('fresh');
    expect(store.remember(1, 'abcdefghijklmnop', sig(2), NOW, LATER)).toBe('nonceReplayed');
    expect(store.remember(1, 'ABCDEFGHIJKLMNOP', sig(3), NOW, LATER)).toBe('nonceReplayed');
  });

  it('refuses a signature seen before even with a fresh nonce, and records nothing for it', () => {
    const store = new ReplayStore(db);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER)).toBe('fresh');
    expect(store.remember(1, 'bbbbbbbbbbbbbbbb', sig(1), NOW, LATER)).toBe('signatureReplayed');
    expect(store.remember(1, 'cccccccccccccccc', sig(1).toUpperCase(), NOW, LATER)).toBe('signatureReplayed');
    expect(store.liveRows()).toBe(2);
    // The refused request's nonce was not kept, so an honest retry with it still works.
    expect(store.remember(1, 'bbbbbbbbbbbbbbbb', sig(2), NOW, LATER)).toBe('fresh');
  });

  it('scopes entries by app', () => {
    const store = new ReplayStore(db);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER)).toBe('fresh');
    expect(store.remember(2, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER)).toBe('fresh');
  });

  it('keeps an entry through its expiry instant and forgets it 1 ms later', () => {
    const store = new ReplayStore(db);
    store.remember(1, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', sig(2), LATER, LATER + 1)).toBe('nonceReplayed');
    expect(store.prune(LATER)).toBe(0);
    expect(store.prune(LATER + 1)).toBe(2);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', sig(1), LATER + 1, LATER + 2)).toBe('fresh');
  });

  it('survives closing and reopening the database', () => {
    new ReplayStore(db).remember(1, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER);
    db.close();
    db = openDatabase({ file: join(dir, 'service.db') });
    expect(new ReplayStore(db).remember(1, 'aaaaaaaaaaaaaaaa', sig(2), NOW, LATER)).toBe('nonceReplayed');
  });

  it('lets exactly one of two connections record the same request', () => {
    const other = openDatabase({ file: join(dir, 'service.db') });
    try {
      const a = new ReplayStore(db).remember(1, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER);
      const b = new ReplayStore(other).remember(1, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER);
      expect([a, b].sort()).toEqual(['fresh', 'nonceReplayed']);
    } finally {
      other.close();
    }
  });

  it('refuses new requests when full instead of forgetting live ones, and recovers as entries expire', () => {
    const store = new ReplayStore(db, 3);
    for (let i = 0; i < 3; i++) {
      expect(store.remember(1, `nonce${i}`.padEnd(16, 'x'), sig(i), NOW, LATER + i)).toBe('fresh');
    }
    let thrown: unknown;
    try {
      store.remember(1, 'freshnoncexxxxxx', sig(99), NOW, LATER);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(FaultError);
    expect((thrown as FaultError).fault).toMatchObject({ errCode: 'service.throttled.policy', status: 429 });
    expect((thrown as FaultError).fault.reason).toMatch(/replay window/);
    // Every earlier entry is still there.
    expect(store.liveRows()).toBe(6);
    expect(store.remember(1, 'nonce0xxxxxxxxxx', sig(50), LATER + 1, LATER + 2)).toBe('fresh');
  });

  it('bounds the store at a named limit', () => {
    expect(MAX_REPLAY_REQUESTS).toBe(100_000);
  });

  it('forgets an app', () => {
    const store = new ReplayStore(db);
    store.remember(1, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER);
    store.remember(2, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER);
    store.forgetApp(1);
    expect(store.liveRows()).toBe(2);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', sig(1), NOW, LATER)).toBe('fresh');
  });
});
