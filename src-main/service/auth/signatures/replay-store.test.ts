import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultError } from '../../../../src-shared/faults.js';
import { openDatabase, type Db } from '../../db/open.js';
import {
  MAX_REPLAY_NONCES,
  MAX_REPLAY_NONCES_PER_APP,
  MAX_REPLAY_NONCES_PER_ORG,
  ReplayStore,
  type ReplayStoreOptions,
} from './replay-store.js';
import { REPLAY_JOURNAL_FILE, replayLogFile } from './replay-journal.js';

const NOW = 1_700_000_000_000;
const LATER = NOW + 15 * 60_000;

let dir: string;
let journalFile: string;
const opened: ReplayStore[] = [];
const restoreLater: (() => void)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'replay-test-'));
  journalFile = join(dir, REPLAY_JOURNAL_FILE);
});
afterEach(() => {
  for (const restore of restoreLater.splice(0)) restore();
  for (const store of opened.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A store journalling to this test's folder. */
function storeOf(max?: number, legacyDb?: Db, more: ReplayStoreOptions = {}): ReplayStore {
  const store = new ReplayStore(
    { file: journalFile },
    {
      ...more,
      ...(max === undefined ? {} : { limits: { perApp: max, ...more.limits } }),
      ...(legacyDb ? { legacyDb } : {}),
    },
  );
  opened.push(store);
  return store;
}

describe('ReplayStore', () => {
  it('accepts a nonce once, then refuses it in any letter case', () => {
    const store = storeOf();
    expect(store.remember(1, 'abcdefghijklmnop', NOW, LATER)).toBe('fresh');
    expect(store.remember(1, 'abcdefghijklmnop', NOW, LATER)).toBe('replayed');
    expect(store.remember(1, 'ABCDEFGHIJKLMNOP', NOW, LATER)).toBe('replayed');
  });

  it('scopes entries by app', () => {
    const store = storeOf();
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('fresh');
    expect(store.remember(2, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('fresh');
    expect(store.remember(10, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('fresh');
    expect(store.countedNonces(1)).toBe(1);
  });

  it('keeps an entry through its expiry instant and forgets it 1 ms later', () => {
    const store = storeOf();
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', LATER, LATER + 1)).toBe('replayed');
    expect(store.prune(LATER)).toBe(0);
    expect(store.prune(LATER + 1)).toBe(1);
    expect(store.liveRows()).toBe(0);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', LATER + 1, LATER + 2)).toBe('fresh');
  });

  it('survives closing and reopening (the journal is read back)', () => {
    storeOf().remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    opened.splice(0).forEach((s) => s.close());
    const reopened = storeOf();
    expect(reopened.remember(1, 'AAAAAAAAAAAAAAAA', NOW + 5, LATER)).toBe('replayed');
    // Entries that ended while it was closed are not read back.
    reopened.close();
    expect(storeOf().remember(1, 'aaaaaaaaaaaaaaaa', LATER + 1, LATER + 2)).toBe('fresh');
  });

  it('lets one store hold a journal: another is refused with a clear fault, and takes over once it closes', () => {
    const first = storeOf();
    expect(first.claim(NOW)).toBe(true);
    first.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    const second = storeOf();
    expect(second.claim(NOW)).toBe(false);
    let thrown: unknown;
    try {
      second.remember(1, 'bbbbbbbbbbbbbbbb', NOW, LATER);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(FaultError);
    expect((thrown as FaultError).fault).toMatchObject({ errCode: 'service.error.replayJournal', status: 500 });
    expect((thrown as FaultError).fault.reason).toMatch(/Another service process .* refuses signed requests/);
    first.close();
    // Within a second of the failed try it does not try again; then it takes over, nonces included.
    expect(() => second.remember(1, 'aaaaaaaaaaaaaaaa', NOW + 999, LATER)).toThrow(/replay journal/);
    expect(second.remember(1, 'aaaaaaaaaaaaaaaa', NOW + 1000, LATER)).toBe('replayed');
  }, 10_000);

  it("refuses an app's new nonces when its share is full, leaves other apps alone, and recovers", () => {
    const store = storeOf(3);
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
    // A replay of a remembered nonce is still told apart from a full share.
    expect(store.remember(1, 'nonce0xxxxxxxxxx', NOW, LATER)).toBe('replayed');
    for (let i = 0; i < 3; i++) expect(store.remember(2, `other${i}`.padEnd(16, 'x'), NOW, LATER)).toBe('fresh');
    expect(store.liveRows()).toBe(6);
    expect(store.journalRows()).toBe(6); // the refused nonce was not journalled
    expect(store.remember(1, 'nonce0xxxxxxxxxx', LATER + 1, LATER + 2)).toBe('fresh');
  });

  it('takes over an expired nonce that was not pruned yet (no false replay)', () => {
    const store = storeOf();
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, NOW + 10);
    const soon = NOW + 11;
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', soon, LATER)).toBe('fresh');
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', soon, LATER)).toBe('replayed');
    expect(store.countedNonces(1)).toBe(1);
    // The entry took the new expiry: pruning past the old one keeps it.
    expect(store.prune(NOW + 5000)).toBe(0);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', NOW + 5000, LATER)).toBe('replayed');
  });

  it('does not count expired entries against a full share (no false throttling)', () => {
    const store = storeOf(2);
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, NOW + 10);
    store.remember(1, 'bbbbbbbbbbbbbbbb', NOW, LATER);
    expect(store.remember(1, 'cccccccccccccccc', NOW + 11, LATER)).toBe('fresh');
    expect(() => store.remember(1, 'dddddddddddddddd', NOW + 12, LATER)).toThrow(FaultError);
    expect(store.countedNonces(1)).toBe(2);
  });

  it("appends one log line for a fresh nonce (in the turn's write), none for a replay, and no SQL", async () => {
    const store = storeOf();
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER); // opens the journal, prunes once
    await store.durable();
    const probe = openDatabase({ file: ':memory:' });
    const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
    probe.close();
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
    expect(store.remember(1, 'bbbbbbbbbbbbbbbb', NOW + 2, LATER)).toBe('replayed');
    expect(ran).toEqual([]); // decided in memory; the append waits for the turn's write
    const first = `${LATER} 1 aaaaaaaaaaaaaaaa\n`;
    expect(readFileSync(replayLogFile(journalFile), 'latin1')).toBe(first);
    await store.durable();
    expect(ran).toEqual([]); // the log took it; the database takes it in at a checkpoint
    expect(readFileSync(replayLogFile(journalFile), 'latin1')).toBe(`${first}${LATER} 1 bbbbbbbbbbbbbbbb\n`);
  });

  it('commits the nonces of one event-loop turn together, and settles `durable` only after', async () => {
    const store = storeOf();
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    await store.durable(); // the journal is open
    store.remember(1, 'bbbbbbbbbbbbbbbb', NOW, LATER);
    const first = store.durable();
    store.remember(2, 'cccccccccccccccc', NOW, LATER);
    expect(store.durable()).toBe(first); // one commit for both
    let settled = false;
    void first.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false); // not before the turn's end
    await first;
    store.remember(1, 'dddddddddddddddd', NOW, LATER);
    expect(store.durable()).not.toBe(first); // the next turn has a commit of its own
    await store.durable();
    store.close();
    // Read back by the next store on the folder: every nonce reached the journal.
    const reopened = storeOf();
    for (const nonce of ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'dddddddddddddddd']) {
      expect(reopened.remember(1, nonce, NOW + 1, LATER)).toBe('replayed');
    }
    expect(reopened.remember(2, 'cccccccccccccccc', NOW + 1, LATER)).toBe('replayed');
  });

  it('commits what is queued when closed, so a nonce accepted just before is not lost', () => {
    const store = storeOf();
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('fresh');
    store.close(); // before the turn's end
    expect(storeOf().remember(1, 'aaaaaaaaaaaaaaaa', NOW + 1, LATER)).toBe('replayed');
  });

  it('deletes expired rows from the journal', () => {
    const store = storeOf();
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    store.remember(1, 'bbbbbbbbbbbbbbbb', NOW, LATER + 60_000);
    store.prune(LATER + 1);
    expect(store.journalRows()).toBe(1);
  });

  it('moves the nonces an earlier version kept in the main database into the journal', () => {
    const db = openDatabase({ file: join(dir, 'service.db') });
    try {
      const insert = db.prepare('INSERT INTO replay_entries (kind, value, app_id, expires) VALUES (?, ?, ?, ?)');
      insert.run('nonce', '4:legacylivenonce1', 4, LATER);
      insert.run('nonce', '4:legacydeadnonce1', 4, NOW - 1);
      insert.run('nonce', '4:not-a-nonce', 4, LATER); // could never be presented: left behind
      const store = storeOf(undefined, db);
      expect(store.remember(4, 'legacylivenonce1', NOW, LATER)).toBe('replayed');
      expect(store.remember(4, 'legacydeadnonce1', NOW, LATER)).toBe('fresh');
      expect(db.prepare('SELECT count(*) FROM replay_entries').pluck().get()).toBe(0);
      store.close();
      expect(storeOf(undefined, db).remember(4, 'legacylivenonce1', NOW, LATER)).toBe('replayed');
    } finally {
      db.close();
    }
  });

  it('sets a damaged journal aside and starts a new one', () => {
    writeFileSync(journalFile, Buffer.alloc(8192, 7)); // not a database
    writeFileSync(`${journalFile}-wal`, Buffer.alloc(4096, 9)); // nor its log, which must not be replayed
    const store = storeOf();
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('fresh');
    const names = readdirSync(dir);
    expect(names.some((name) => name.startsWith(`${REPLAY_JOURNAL_FILE}.damaged-`))).toBe(true);
    expect(existsSync(journalFile)).toBe(true);
    store.close();
    expect(storeOf().remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('replayed'); // the new one works
  });

  it('agrees with a plain model through random remembers, prunes and expiries', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const store = storeOf(40);
    const model = new Map<string, number>(); // `${app}:${nonce}` → expires
    let now = NOW;
    for (let step = 0; step < 3000; step++) {
      now += Math.floor(random() * 400);
      if (random() < 0.05) {
        store.prune(now);
        continue;
      }
      const app = 1 + Math.floor(random() * 3);
      const nonce = `n${Math.floor(random() * 60)}`.padEnd(16, 'x');
      const expires = now + Math.floor(random() * 5000);
      const key = `${app}:${nonce}`;
      const known = model.get(key);
      const live = [...model].filter(([k, e]) => k.startsWith(`${app}:`) && e >= now).length;
      let expected: string;
      if (known !== undefined && known >= now) expected = 'replayed';
      else if (known === undefined && live >= 40) expected = 'full';
      else {
        expected = 'fresh';
        model.set(key, expires);
      }
      let got: string;
      try {
        got = store.remember(app, nonce, now, expires);
      } catch {
        got = 'full';
      }
      expect(got, `step ${step}`).toBe(expected);
    }
    const liveInModel = [...model.values()].filter((e) => e >= now).length;
    store.prune(now);
    expect(store.liveRows()).toBe(liveInModel);
  });

  it('bounds each app, each org and the service at named limits, each above the one before', () => {
    expect(MAX_REPLAY_NONCES_PER_APP).toBe(1_000_000);
    // One app alone never fills its org's share, one org alone never fills the service's.
    expect(MAX_REPLAY_NONCES_PER_ORG).toBeGreaterThan(MAX_REPLAY_NONCES_PER_APP);
    expect(MAX_REPLAY_NONCES).toBeGreaterThan(MAX_REPLAY_NONCES_PER_ORG);
  });

  /** Apps 1-3 in org 10, app 4 in org 20, app 5 in org 30. */
  const orgOfApp = (appId: number) => (appId <= 3 ? 10 : appId * 5);
  const nonce = (i: number) => `nonce${String(i).padStart(11, '0')}`;
  const throttledBy = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err instanceof FaultError ? `${err.fault.errCode}: ${err.fault.reason}` : String(err);
    }
    return 'accepted';
  };

  it("bounds an org's apps together and the service in all; a full share still refuses replays", () => {
    const store = storeOf(undefined, undefined, { limits: { perApp: 3, perOrg: 5, total: 7 }, orgOfApp });
    let i = 0;
    for (const app of [1, 1, 1, 2, 2]) expect(store.remember(app, nonce(++i), NOW, LATER)).toBe('fresh');
    expect(throttledBy(() => store.remember(3, nonce(++i), NOW, LATER))).toMatch(/throttled\.policy: This org's/);
    for (const app of [4, 4]) expect(store.remember(app, nonce(++i), NOW, LATER)).toBe('fresh');
    expect(throttledBy(() => store.remember(5, nonce(++i), NOW, LATER))).toMatch(/throttled\.policy: The service/);
    expect(store.remember(1, nonce(1), NOW + 1, LATER)).toBe('replayed');
    expect(store.remember(4, nonce(7), NOW + 1, LATER)).toBe('replayed');
    expect(store.liveRows()).toBe(7);
    // Past the window, the room is there again.
    expect(store.remember(5, nonce(++i), LATER + 1, LATER + 2)).toBe('fresh');
    expect(store.remember(3, nonce(++i), LATER + 1, LATER + 2)).toBe('fresh');
  });

  it('counts the nonces read back from the journal toward the shares', () => {
    const opts = { limits: { perApp: 3, perOrg: 4, total: 100 }, orgOfApp };
    const first = storeOf(undefined, undefined, opts);
    for (let i = 1; i <= 4; i++) first.remember(i <= 2 ? 1 : 2, nonce(i), NOW, LATER);
    first.close();
    const reopened = storeOf(undefined, undefined, opts);
    expect(throttledBy(() => reopened.remember(3, nonce(9), NOW + 1, LATER))).toMatch(/This org's/);
    expect(reopened.remember(2, nonce(3), NOW + 1, LATER)).toBe('replayed');
    expect(reopened.remember(4, nonce(9), NOW + 1, LATER)).toBe('fresh');
  });

  it('forgetting an app gives its room back to its org and the service', () => {
    const store = storeOf(undefined, undefined, { limits: { perApp: 3, perOrg: 3, total: 3 }, orgOfApp });
    for (let i = 1; i <= 3; i++) store.remember(1, nonce(i), NOW, LATER);
    expect(throttledBy(() => store.remember(2, nonce(4), NOW, LATER))).toMatch(/This org's/);
    store.forgetApp(1);
    expect(store.remember(2, nonce(4), NOW, LATER)).toBe('fresh');
    expect(store.liveRows()).toBe(1);
  });

  it('prunes a full org or service at most once a second, however many requests are refused', () => {
    const store = storeOf(undefined, undefined, { limits: { perApp: 10, perOrg: 2, total: 100 }, orgOfApp });
    store.remember(1, nonce(1), NOW, NOW + 10);
    store.remember(2, nonce(2), NOW, NOW + 5_000);
    // The first refusal prunes (nothing has expired yet); refusals within the next second do not,
    // so app 1's nonce, expired at NOW + 10, still counts at NOW + 500.
    expect(throttledBy(() => store.remember(3, nonce(3), NOW + 5, NOW + 50))).toMatch(/This org's/);
    expect(throttledBy(() => store.remember(3, nonce(4), NOW + 500, NOW + 900))).toMatch(/This org's/);
    // A second after the last prune, the expired entry of app 1 is dropped and there is room.
    expect(store.remember(3, nonce(5), NOW + 1005, NOW + 2000)).toBe('fresh');
  });

  it('forgets an app, in memory and in the journal', () => {
    const store = storeOf();
    store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    store.remember(2, 'aaaaaaaaaaaaaaaa', NOW, LATER);
    store.forgetApp(1);
    expect(store.liveRows()).toBe(1);
    expect(store.journalRows()).toBe(1);
    expect(store.remember(1, 'aaaaaaaaaaaaaaaa', NOW, LATER)).toBe('fresh');
  });
});
