/** Environment export and import (docs/configuration.md). */
import { gzipSync } from 'node:zlib';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../testing/harness.js';
import {
  configureSample,
  exportOf as exportFrom,
  importInto,
  ndjsonLines,
  twoOrgClients,
} from '../testing/environment-testing.js';
import { createUser, USER_PASSWORD } from '../testing/token-testing.js';

let h: Harness;
let a: TestClient;
let b: TestClient;

const everything = { includes: ['*'], c_conversation: { includes: ['*'] } };

beforeEach(async () => {
  h = await createHarness();
  ({ a, b } = await twoOrgClients(h));
}, 60_000); // two orgs (key pairs, password hashes): slow on a loaded machine
afterEach(async () => h.close());

const exportOf = (client: TestClient, manifest: unknown = everything) => exportFrom(client, manifest);
const lines = ndjsonLines;

describe('environment export', () => {
  it('streams one document per resource and ends with manifest, dependencies and exports', async () => {
    await configureSample(h, a);
    const docs = lines(await exportOf(a));
    const names = docs.map((d) => d.resource).filter(Boolean);
    expect(names).toEqual(
      expect.arrayContaining([
        'object.c_thing',
        'object.account',
        'role.analyst',
        'role.administrator',
        'app.Back end',
        'view.open_convs',
        'env',
      ]),
    );
    expect(names.some((n) => String(n).startsWith('c_conversation.'))).toBe(true);
    expect(docs.slice(-3).map((d) => d.object)).toEqual(['manifest', 'manifest-dependencies', 'manifest-exports']);
    expect(docs.at(-1)!.resources).toEqual(names);
    expect((docs.at(-2)!.dependencies as Record<string, string[]>)['view.open_convs']).toEqual([
      'object.c_conversation',
      'role.analyst',
    ]);
    // apps travel without their key, secret or private key; references are by name
    const app = docs.find((d) => d.resource === 'app.Back end')!;
    expect(Object.keys(app)).not.toEqual(expect.arrayContaining(['key']));
    expect(JSON.stringify(app)).not.toMatch(/secret|PRIVATE/i);
    expect(docs.find((d) => d.resource === 'role.analyst')!.include).toEqual(['reader']);
    expect(docs.find((d) => d.resource === 'view.open_convs')).toMatchObject({
      principal: ADMIN_EMAIL,
      acl: [{ type: 'role', target: 'analyst' }],
    });
  });

  it('selects by includes and excludes (names, * and /regex/)', async () => {
    await configureSample(h, a);
    const docs = lines(await exportOf(a, { roles: { includes: ['/^(ana|rea)/'], excludes: ['reader'] } }));
    expect(docs.filter((d) => d.resource).map((d) => d.resource)).toEqual(['role.analyst']);
    expect((await a.post('/developer/environment/export', { manifest: { bogus: {} } })).json()).toMatchObject({
      errCode: 'service.invalidArgument.manifest',
      path: 'manifest.bogus',
    });
  });

  it('is for administrators only', async () => {
    await createUser(a, 'user@example.test');
    const user = new TestClient(h);
    await user.login('user@example.test', USER_PASSWORD);
    expect((await user.post('/developer/environment/export', { manifest: everything })).json()).toMatchObject({
      errCode: 'service.accessDenied.principal',
    });
    expect((await importInto(user, '')).json()).toMatchObject({ errCode: 'service.accessDenied.principal' });
  });
});

describe('environment import', () => {
  it('round trip: org A exported, imported into a fresh org B, B exported equals A', async () => {
    await configureSample(h, a);
    const fromA = await exportOf(a);
    const res = await importInto(b, fromA);
    expect(res.statusCode, res.body).toBe(200);
    const log = lines(res.body);
    expect(log.every((l) => l.object === 'manifest.log')).toBe(true);
    expect(log.at(-1)).toMatchObject({ type: 'status', stage: 'complete' });
    expect(log.filter((l) => l.type === 'status').map((l) => l.stage)).toEqual(['ingest', 'import', 'complete']);
    expect(log).toContainEqual(expect.objectContaining({ resource: 'view.open_convs', change: 'added' }));
    // every section: object types, roles, apps, settings, views, scripts, records
    const kinds = new Set(lines(fromA).map((d) => d.object));
    for (const kind of ['object', 'role', 'app', 'env', 'view', 'script', 'c_conversation'])
      expect(kinds).toContain(kind);
    expect(lines(await exportOf(b))).toEqual(lines(fromA));
    // and what was imported works: the view runs in B
    expect((await b.get('/views/open_convs?status=open')).json()).toMatchObject({
      object: 'list',
      data: [{ c_title: 'Hello' }],
    });
    // importing again changes nothing
    const again = lines((await importInto(b, fromA)).body);
    expect(again.filter((l) => l.type === 'resource').every((l) => l.change === 'unchanged')).toBe(true);
  });

  it('accepts gzip (by header or by magic bytes)', async () => {
    await configureSample(h, a);
    const zipped = gzipSync(Buffer.from(await exportOf(a)));
    const res = await importInto(b, zipped, '', { 'content-encoding': 'gzip' });
    expect(lines(res.body).at(-1), res.body).toMatchObject({ stage: 'complete' });
    const plain = await importInto(b, zipped, '', { 'content-type': 'application/octet-stream' });
    expect(lines(plain.body).at(-1), plain.body).toMatchObject({ stage: 'complete' });
  });

  it('writes nothing when one resource is invalid, and names it with the reason', async () => {
    await configureSample(h, a);
    const docs = lines(await exportOf(a));
    const view = docs.find((d) => d.resource === 'view.open_convs')!;
    view.query = [{ name: 'where', value: '{"c_missing": 1}' }];
    const before = await exportOf(b);
    const res = await importInto(b, docs.map((d) => JSON.stringify(d)).join('\n'));
    expect(res.json()).toMatchObject({ object: 'fault', errCode: 'service.validation.import' });
    expect(res.json().faults).toEqual([expect.objectContaining({ path: 'view.open_convs' })]);
    expect(res.json().reason).toContain('c_missing');
    expect(await exportOf(b)).toEqual(before);
    expect(h.svc.defs.byName(h.svc.orgs.byCode('other')!.id, 'c_thing')).toBeUndefined();
  });

  it('checks scripts like a save does: one that does not compile writes nothing, and is named', async () => {
    await configureSample(h, a);
    const docs = lines(await exportOf(a));
    const script = docs.find((d) => d.resource === 'script.c_helpers')!;
    script.script = 'return (1 +';
    const before = await exportOf(b);
    const res = await importInto(b, docs.map((d) => JSON.stringify(d)).join('\n'));
    expect(res.json()).toMatchObject({ errCode: 'service.validation.import' });
    expect(res.json().faults).toEqual([
      expect.objectContaining({ path: 'script.c_helpers', reason: expect.stringContaining('SyntaxError') }),
    ]);
    expect(await exportOf(b)).toEqual(before);
  });

  it('refuses an incomplete stream (no manifest-exports) before anything else', async () => {
    await configureSample(h, a);
    const truncated = (await exportOf(a)).trim().split('\n').slice(0, -1).join('\n');
    expect((await importInto(b, truncated)).json()).toMatchObject({
      errCode: 'service.invalidArgument.import',
      faults: [expect.objectContaining({ path: 'manifest-exports' })],
    });
  });

  it('reads an export made before the settings document took the name env (org / org.settings)', async () => {
    await configureSample(h, a);
    const docs = lines(await exportOf(a)).map((d) =>
      d.object === 'env' ? { ...d, object: 'org', resource: 'org.settings' } : d,
    );
    const list = docs.at(-1)!.resources as string[];
    docs.at(-1)!.resources = list.map((r) => (r === 'env' ? 'org.settings' : r));
    const res = await importInto(b, docs.map((d) => JSON.stringify(d)).join('\n'));
    expect(lines(res.body).at(-1), res.body).toMatchObject({ stage: 'complete' });
    expect(h.svc.orgs.byCode('other')!.settings.lockAttempts).toBe(7);
  });

  it('a stream without manifest-exports must be a folder: a manifest and no manifest-dependencies', async () => {
    await configureSample(h, a);
    const docs = lines(await exportOf(a));
    const resources = docs.slice(0, -3);
    const withoutManifest = resources.map((d) => JSON.stringify(d)).join('\n');
    expect((await importInto(b, withoutManifest)).json()).toMatchObject({ errCode: 'service.invalidArgument.import' });
    // cut right after the manifest: every resource is there, so it imports
    const upToManifest = docs
      .slice(0, -2)
      .map((d) => JSON.stringify(d))
      .join('\n');
    expect(lines((await importInto(b, upToManifest)).body).at(-1)).toMatchObject({ stage: 'complete' });
  });

  it('a dryRun or backup flag that is neither true nor false is refused, and nothing is written', async () => {
    await configureSample(h, a);
    const fromA = await exportOf(a);
    const before = await exportOf(b);
    for (const query of ['?dryRun=yes', '?dryRun=2', '?backup=please']) {
      const res = await importInto(b, fromA, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errCode).toMatch(/^service\.invalidArgument\.(dryRun|backup)$/);
    }
    // a bare ?dryRun is a dry run
    const bare = lines((await importInto(b, fromA, '?dryRun')).body);
    expect(bare.at(-1)).toMatchObject({ stage: 'complete', message: expect.stringContaining('Dry run') });
    expect(await exportOf(b)).toEqual(before);
  });

  it('dry run reports the changes and writes nothing', async () => {
    await configureSample(h, a);
    const before = await exportOf(b);
    const res = await importInto(b, await exportOf(a), '?dryRun=true');
    const log = lines(res.body);
    expect(log.at(-1)).toMatchObject({ stage: 'complete', message: expect.stringContaining('Dry run') });
    expect(log).toContainEqual(expect.objectContaining({ resource: 'object.c_thing', change: 'added' }));
    expect(log).toContainEqual(expect.objectContaining({ resource: 'role.administrator', change: 'unchanged' }));
    expect(await exportOf(b)).toEqual(before);
  });

  it('never deletes: what the manifest selects but the stream lacks is reported kept, and stays', async () => {
    await configureSample(h, a);
    expect((await b.post('/roles', { name: 'Local', code: 'local_only', scopes: [] })).statusCode).toBe(200);
    const fromA = await exportOf(a, { roles: { includes: ['*'] } });
    const dry = lines((await importInto(b, fromA, '?dryRun=true')).body);
    expect(dry).toContainEqual(
      expect.objectContaining({
        resource: 'role.local_only',
        change: 'kept',
        before: expect.objectContaining({ code: 'local_only' }),
      }),
    );
    expect(dry.some((l) => l.change === 'removed')).toBe(false);
    // a dry run carries both sides of each change, for a side-by-side diff
    expect(dry).toContainEqual(
      expect.objectContaining({
        resource: 'role.reader',
        change: 'added',
        after: expect.objectContaining({ name: 'Reader' }),
      }),
    );
    const log = lines((await importInto(b, fromA)).body);
    expect(log).toContainEqual(expect.objectContaining({ resource: 'role.local_only', change: 'kept' }));
    expect(log.find((l) => l.resource === 'role.reader')).not.toHaveProperty('after'); // applied runs: the diff only
    const codes = (await b.get('/roles')).json().data.map((r: { code?: string }) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['local_only', 'reader', 'analyst']));
  });

  it('refuses a concurrent import (the lock is a database row) and keeps a backup when asked', async () => {
    await configureSample(h, a);
    const fromA = await exportOf(a);
    const orgB = h.svc.orgs.byCode('other')!;
    h.svc.db
      .prepare('INSERT INTO environment_locks (org_id, holder, expires) VALUES (?, ?, ?)')
      .run(orgB.id, 'elsewhere', h.clock.now() + 60_000);
    expect((await importInto(b, fromA)).json()).toMatchObject({ errCode: 'service.accessDenied.deploymentInProgress' });
    h.svc.db.prepare('DELETE FROM environment_locks').run();
    // two at once: the second arrives while the first holds the lock (it is writing its backup)
    const [first, second] = await Promise.all([importInto(b, fromA, '?backup=true'), importInto(b, fromA)]);
    const bodies = [first.body, second.body];
    expect(bodies.filter((t) => t.includes('"stage":"complete"'))).toHaveLength(1);
    expect(bodies.filter((t) => t.includes('deploymentInProgress'))).toHaveLength(1);
    const backup = lines(first.body).find((l) => l.stage === 'backup' && l.message);
    // Named relative to the data folder (issue 38 low 6): the answer does not say where it lies.
    const file = String(backup?.message).replace(/^Backup written to (.*) in the data folder\.$/, '$1');
    expect(file).toMatch(/^backups\/before-import-other-[^/]+\.db$/);
    expect(String(backup?.message)).not.toContain(h.dataDir);
    expect(existsSync(join(h.dataDir, file))).toBe(true);
    // Private like the database it copies (issue 38 low 6).
    expect(statSync(join(h.dataDir, file)).mode & 0o777).toBe(0o600);
  });
});
