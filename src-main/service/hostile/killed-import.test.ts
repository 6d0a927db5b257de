/**
 * A killed import leaves the target unchanged (issue #17 proof): the command-line import of a
 * large stream runs as its own process and is SIGKILLed while it writes its one transaction; the
 * org afterwards holds exactly what it held before, the database is intact, and the next import
 * does not wait for the dead process's lock to lapse.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCliBundle } from './service-process.js';
import { openService, DB_FILE } from '../open-service.js';
import { bootstrapOrg } from '../bootstrap.js';
import type { Service } from '../service.js';
import { importEnvironment } from '../environment/import.js';
import { readImportStream } from '../environment/ndjson-input.js';
import { administratorOf } from '../environment/actor.js';
import { exportDocuments } from '../environment/export.js';
import { parseManifest } from '../environment/manifest.js';

const RECORDS = 40_000;
let cli: string;
let dir: string;

beforeAll(async () => {
  cli = await currentCliBundle();
  dir = mkdtempSync(join(tmpdir(), 'killed-import-'));
  const svc = openService({ dataDir: dir }); // writes master.key, which the CLI reads
  try {
    const { org } = await bootstrapOrg(svc, { code: 'demo', adminEmail: 'a@b.test', adminPassword: 'a long password' });
    const def = svc.defs.byName(org.id, 'c_conversation')!;
    svc.store.insert(org.id, def, { c_title: 'already here' });
  } finally {
    svc.close();
  }
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest = { roles: { includes: ['*'] }, c_conversation: { includes: ['*'] } };

function snapshot(svc: Service): string {
  const org = svc.orgs.byCode('demo')!;
  return JSON.stringify(exportDocuments(svc, org, parseManifest(manifest)));
}

/** A stream adding a role and RECORDS conversations: one transaction of some seconds. */
function bigStream(svc: Service): string {
  const docs: Record<string, unknown>[] = [
    { object: 'role', resource: 'role.killed', name: 'Killed', code: 'killed', scopes: [], include: [] },
  ];
  for (let i = 0; i < RECORDS; i++) {
    const _id = svc.store.newId();
    docs.push({ object: 'c_conversation', resource: `c_conversation.${_id}`, _id, c_title: `imported ${i}` });
  }
  const resources = docs.map((d) => d.resource);
  docs.push({ object: 'manifest', ...manifest }, { object: 'manifest-dependencies', dependencies: {} });
  docs.push({ object: 'manifest-exports', resources });
  return docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
}

describe('a killed import', () => {
  it('leaves the target unchanged and does not block the next import', async () => {
    let before: string;
    const file = join(dir, 'big.ndjson');
    {
      const svc = openService({ dataDir: dir });
      before = snapshot(svc);
      writeFileSync(file, bigStream(svc));
      svc.close();
    }
    const child = spawn(
      process.execPath,
      [cli, 'admin', 'env', 'import', '--data-dir', dir, '--org', 'demo', '--in', file],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    // Watch from outside: the lock row appears, then the import's one write transaction opens
    // (another connection cannot begin a write while it is open); kill it in the middle of that.
    const watcher = new Database(join(dir, DB_FILE), { fileMustExist: true, timeout: 0 });
    const writing = () => {
      try {
        watcher.exec('BEGIN IMMEDIATE');
        watcher.exec('ROLLBACK');
        return false;
      } catch (err) {
        if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
        throw err;
      }
    };
    let locked = false;
    let busySeen = 0;
    const deadline = Date.now() + 120_000;
    while (child.exitCode === null && Date.now() < deadline) {
      locked ||= (watcher.prepare('SELECT count(*) FROM environment_locks').pluck().get() as number) > 0;
      busySeen = locked && writing() ? busySeen + 1 : 0;
      if (busySeen >= 5) {
        child.kill('SIGKILL');
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    watcher.close();
    const { signal } = await exited;
    expect(signal, output).toBe('SIGKILL'); // it did not get to finish
    expect(busySeen).toBeGreaterThanOrEqual(5); // killed while its transaction was open

    const svc = openService({ dataDir: dir });
    try {
      expect(svc.db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(snapshot(svc)).toEqual(before);
      // the dead process's lock row is still there, and does not hold the next import back
      expect(svc.db.prepare('SELECT count(*) FROM environment_locks').pluck().get()).toBe(1);
      const org = svc.orgs.byCode('demo')!;
      const small = exportDocuments(svc, org, parseManifest({ roles: { includes: ['administrator'] } }));
      const result = await importEnvironment(
        svc,
        org,
        await readImportStream(Buffer.from(small.map((d) => JSON.stringify(d)).join('\n'))),
        { actorId: administratorOf(svc, org) },
      );
      expect(result.log.at(-1)).toMatchObject({ stage: 'complete' });
      expect(svc.db.prepare('SELECT count(*) FROM environment_locks').pluck().get()).toBe(0);
    } finally {
      svc.close();
    }
  }, 180_000);
});
