/**
 * Issue 40: `require('developer').environment` from a script — export, and import through the
 * same path as `POST /developer/environment/import` (reader, importer, record rules, dry run,
 * backup), for org administrators only.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../../testing/harness.js';
import { createUser } from '../../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let userId: string;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  userId = await createUser(admin, 'plain@example.test');
  await h.svc.scripts.run({ source: 'return 1' });
}, 60_000);
afterAll(async () => h.close());

const run = (script: string, args: Record<string, unknown> = {}) =>
  admin.post('/sys/script_runner', { script, language: 'javascript', specification: 'es6', arguments: args });

/** The export of one library script, as `environment.export` answers it. */
async function exportOf(name: string): Promise<unknown[]> {
  const saved = await admin.post('/scripts', {
    label: name,
    name,
    type: 'library',
    active: true,
    script: 'module.exports = 1',
    configuration: { export: name },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const r = await run(
    `return require('developer').environment.export({ manifest: { object: 'manifest', scripts: { includes: ['${name}'] } } }).toArray()`,
  );
  expect(r.statusCode, r.body).toBe(200);
  await admin.delete(`/scripts/${saved.json()._id}`);
  return r.json().data as unknown[];
}

const scriptNamed = async (name: string) =>
  ((await admin.get(`/scripts?where=${encodeURIComponent(JSON.stringify({ name }))}`)).json().data as unknown[]).length;

describe("require('developer').environment", () => {
  it('exports the environment as documents', async () => {
    const r = await run(`
      const docs = require('developer').environment.export({ manifest: { object: 'manifest', objects: [{ name: 'c_conversation', includes: ['*'] }] } }).toArray()
      return docs.map(d => d.object)`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toEqual(expect.arrayContaining(['object', 'manifest']));
  });

  it('imports an export (array or cursor) and answers the manifest log', async () => {
    const docs = await exportOf('c_env_lib');
    expect(await scriptNamed('c_env_lib')).toBe(0);
    const r = await run(
      `const log = require('developer').environment.import(script.arguments.docs).toArray()
       return { stages: log.filter(e => e.stage).map(e => e.stage), loaded: require('c_env_lib') }`,
      { docs },
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ stages: ['ingest', 'import', 'complete'], loaded: 1 });
    expect(await scriptNamed('c_env_lib')).toBe(1);
  });

  it('a dry run writes nothing; a backup is written as the route writes it', async () => {
    const docs = await exportOf('c_env_dry');
    const dry = await run(
      `return require('developer').environment.import(script.arguments.docs, { dryRun: true }).toArray().map(e => e.change || e.stage)`,
      { docs },
    );
    expect(dry.json().data).toEqual(['ingest', 'import', 'added', 'complete']);
    expect(await scriptNamed('c_env_dry')).toBe(0);
    const real = await run(
      `return require('developer').environment.import(script.arguments.docs, { backup: true }).toArray().filter(e => e.stage === 'backup').map(e => e.message)`,
      { docs },
    );
    const written = String(real.json().data[1]).match(/backups\/[^ ]+\.db/)?.[0];
    expect(written).toBeDefined();
    expect(existsSync(join(h.dataDir, written!))).toBe(true);
    expect(await scriptNamed('c_env_dry')).toBe(1);
  });

  it('applies the record rules: a script that does not compile imports nothing', async () => {
    const docs = (await exportOf('c_env_bad')).map((d) =>
      (d as { object: string }).object === 'script' ? { ...(d as object), script: 'return (' } : d,
    );
    const r = await run(`return require('developer').environment.import(script.arguments.docs).toArray()`, { docs });
    expect(r.json()).toMatchObject({ errCode: 'service.validation.import' });
    expect(r.json().reason).toContain('SyntaxError');
    expect(await scriptNamed('c_env_bad')).toBe(0);
  });

  it('refuses what is not documents, bad options and a caller who is not an administrator', async () => {
    const notDocs = await run(`return require('developer').environment.import('nope')`);
    expect(notDocs.json().errCode).toBe('service.invalidArgument.cursorOrArrayExpected');
    const badFlag = await run(`return require('developer').environment.import([], { dryRun: 'yes' })`);
    expect(badFlag.json()).toMatchObject({ errCode: 'service.invalidArgument.dryRun' });
    const asUser = await run(
      `return script.as(script.arguments.user, {}, () => require('developer').environment.import([], { dryRun: true }))`,
      { user: userId },
    );
    expect(asUser.json()).toMatchObject({ errCode: 'service.accessDenied.principal' });
  });
});
