/**
 * Durability of the service as a real process: writes through the API, SIGKILL at random moments
 * (seeded), restart on the same data dir — every acknowledged write must survive and the database
 * must pass `PRAGMA integrity_check`. Then online backup while writes run, and restore.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCliBundle, runAdmin, startServiceProcess, type ServiceProcess } from './service-process.js';
import { ADMIN, loginOverHttp, withSession, type HttpSession } from './http-session.js';

const CYCLES = 8;
const SEED = Number(process.env.FUZZ_SEED ?? 42);

let cli: string;
let dataDir: string;
const running: ServiceProcess[] = [];
let session: HttpSession;

beforeAll(async () => {
  cli = await currentCliBundle();
  dataDir = mkdtempSync(join(tmpdir(), 'durability-'));
  const first = await start(['--admin-email', ADMIN.email, '--admin-password', ADMIN.password]);
  session = await loginOverHttp(first.base);
  await first.stop();
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(extra: string[] = [], dir = dataDir): Promise<ServiceProcess> {
  const p = await startServiceProcess(cli, dir, extra);
  running.push(p);
  return p;
}

/** mulberry32: a small seeded generator, so kill moments are the same on every CI run. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writers: `lanes` loops posting records until stopped. A write is acknowledged only when its 200
 * answer arrived; requests cut off by a kill are simply not acknowledged.
 */
function startWriters(target: HttpSession, acked: Map<string, string>, prefix: string, lanes = 4) {
  let stopped = false;
  let n = 0;
  const lane = async () => {
    while (!stopped) {
      const title = `${prefix}-${n++}`;
      try {
        const res = await target.post('/c_conversations', { c_title: title });
        if (res.status === 200) acked.set(((await res.json()) as { _id: string })._id, title);
        else if (!stopped) throw new Error(`write refused: ${res.status} ${await res.text()}`);
      } catch (err) {
        if (!stopped && !/fetch failed|ECONNRESET|ECONNREFUSED|terminated|other side closed/i.test(String(err)))
          throw err;
        return; // the process is gone
      }
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, lane));
  return {
    stop: async () => {
      stopped = true;
      await done;
    },
    done,
  };
}

/** Every record of the collection, paged by _id (the keyset paging of the spec). */
async function allConversations(target: HttpSession): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let after = '';
  for (;;) {
    const where = after ? `&where=${encodeURIComponent(JSON.stringify({ _id: { $gt: after } }))}` : '';
    const res = await target.get(`/c_conversations?sort=${encodeURIComponent('{"_id":1}')}&limit=1000${where}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: { _id: string; c_title: string }[]; hasMore: boolean };
    for (const r of page.data) out.set(r._id, r.c_title);
    if (!page.hasMore) return out;
    after = page.data[page.data.length - 1]!._id;
  }
}

function integrity(file: string): string {
  const db = new Database(file);
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

function idsIn(file: string): Set<string> {
  const db = new Database(file, { readonly: true });
  try {
    const { name } = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'o[0-9]*_c_conversation'")
      .get() as { name: string };
    return new Set((db.prepare(`SELECT _id FROM "${name}"`).all() as { _id: string }[]).map((r) => r._id));
  } finally {
    db.close();
  }
}

describe('crash safety', () => {
  it(`keeps every acknowledged write through ${CYCLES} SIGKILLs at random moments`, async () => {
    const random = seeded(SEED);
    const acked = new Map<string, string>();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const p = await start();
      const before = acked.size;
      const writers = startWriters(withSession(p.base, session.appKey, session.headers), acked, `c${cycle}`);
      // Some writes must be acknowledged in every cycle, however slow the machine is; the kill then
      // comes at a random moment after that, while further writes are in flight.
      const deadline = Date.now() + 20_000;
      while (acked.size < before + 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50 + Math.floor(random() * 300)));
      await p.kill(); // mid-write: requests are in flight
      await writers.stop();
      // The crashed database, opened as it was left (WAL recovery included), is sound.
      expect(integrity(join(dataDir, 'service.db'))).toBe('ok');
    }
    expect(acked.size).toBeGreaterThanOrEqual(CYCLES * 3);

    const p = await start();
    const stored = await allConversations(withSession(p.base, session.appKey, session.headers));
    const missing = [...acked].filter(([id, title]) => stored.get(id) !== title);
    expect(missing).toEqual([]);
    await p.stop();
    expect(integrity(join(dataDir, 'service.db'))).toBe('ok');
  }, 90_000);
});

describe('online backup and restore', () => {
  it('backs up while writes run: the copy passes integrity_check and holds every write acknowledged before', async () => {
    const p = await start();
    const target = withSession(p.base, session.appKey, session.headers);
    const acked = new Map<string, string>();
    const writers = startWriters(target, acked, 'backup');
    await new Promise((r) => setTimeout(r, 300));
    const ackedBefore = new Set(acked.keys());
    expect(ackedBefore.size).toBeGreaterThan(0);
    const out = join(dataDir, '..', `${dataDir.split('/').pop()}-backup.db`);
    const result = await runAdmin(cli, ['backup', '--data-dir', dataDir, '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ backup: out });
    await writers.stop();
    expect(acked.size).toBeGreaterThan(ackedBefore.size); // writes really did run during the backup

    expect(integrity(out)).toBe('ok');
    const inBackup = idsIn(out);
    expect([...ackedBefore].filter((id) => !inBackup.has(id))).toEqual([]);

    // Backing up again onto the same file needs --force.
    const again = await runAdmin(cli, ['backup', '--data-dir', dataDir, '--out', out]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/--force/);

    // Restore refuses while the service holds the data dir, even with --force.
    const busy = await runAdmin(cli, ['restore', '--data-dir', dataDir, '--from', out, '--force']);
    expect(busy.code).not.toBe(0);
    expect(busy.stderr).toMatch(/stop it before restoring/);
    await p.stop();

    // Into a fresh data dir (with the same master key): the service starts and serves the data.
    const fresh = mkdtempSync(join(tmpdir(), 'restored-'));
    try {
      const restored = await runAdmin(cli, ['restore', '--data-dir', fresh, '--from', out]);
      expect(restored.code, restored.stderr).toBe(0);
      copyFileSync(join(dataDir, 'master.key'), join(fresh, 'master.key'));
      const q = await start([], fresh);
      const onRestored = await loginOverHttp(q.base);
      const stored = await allConversations(onRestored);
      expect([...ackedBefore].filter((id) => !stored.has(id))).toEqual([]);
      await q.stop();

      // Over an existing database: refused without --force, done with it.
      const refused = await runAdmin(cli, ['restore', '--data-dir', fresh, '--from', out]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/--force/);
      const forced = await runAdmin(cli, ['restore', '--data-dir', fresh, '--from', out, '--force']);
      expect(forced.code, forced.stderr).toBe(0);
      expect(integrity(join(fresh, 'service.db'))).toBe('ok');
      expect(existsSync(join(fresh, 'service.db.restoring'))).toBe(false);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
      rmSync(out, { force: true });
    }
  }, 60_000);

  it('refuses a backup source that is not a sound database', async () => {
    const bogus = join(tmpdir(), `not-a-db-${process.pid}.db`);
    copyFileSync(new URL(import.meta.url).pathname, bogus);
    const fresh = mkdtempSync(join(tmpdir(), 'restored-'));
    try {
      const res = await runAdmin(cli, ['restore', '--data-dir', fresh, '--from', bogus]);
      expect(res.code).not.toBe(0);
      expect(existsSync(join(fresh, 'service.db'))).toBe(false);
    } finally {
      rmSync(bogus, { force: true });
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
