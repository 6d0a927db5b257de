/**
 * An org's export imports into another org (docs/configuration.md#manifests): the `env` document
 * carries no operator limits, counters or config values; config values travel as `config.<key>`
 * resources; an export made before that still imports where those keys equal the target's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { exportOf, importInto, ndjsonLines } from '../testing/environment-testing.js';
import { deployCredential } from '../testing/deployment-testing.js';
import type { Org, OrgSettings } from '../orgs/orgs.js';
import { OrgConfigStore } from '../scripting/org-config.js';
import { resourceNameOf } from './resources.js';

let h: Harness;
let a: TestClient;
let b: TestClient;
let bToken: string;

const SOURCE: Partial<OrgSettings> = {
  lockAttempts: 7,
  scriptLimits: { maxJobRunsPerDay: 50 },
  scriptCounters: { runs: 5 },
  scriptConfig: { c_greeting: 'hi', c_obj: { a: 1 } },
};
const TARGET: Partial<OrgSettings> = {
  scriptLimits: { maxJobRunsPerDay: 2000 },
  scriptCounters: { runs: 99 },
  scriptConfig: { c_own: 1 },
};
const MANIFEST = { settings: { includes: ['*'] }, configs: { includes: ['*'] } };

/** A stream of documents as a folder import sends them: a manifest, no manifest-exports. */
const folder = (...docs: unknown[]) =>
  [{ object: 'manifest', ...MANIFEST }, ...docs].map((d) => JSON.stringify(d)).join('\n');

const orgA = () => h.svc.orgs.byCode('demo')!;
const orgB = () => h.svc.orgs.byCode('other')!;
/** Puts an org back to the test's starting settings (each test changes some). */
const reset = (org: Org, settings: Partial<OrgSettings>) =>
  h.svc.orgs.updateSettings(org, { lockAttempts: 5, ...settings });

beforeAll(async () => {
  h = await createHarness();
  a = new TestClient(h);
  await a.login();
  const other = await a.post('/developer/orgs', {
    code: 'other',
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
  });
  expect(other.statusCode, other.body).toBe(200);
  const key = other.json().consoleAppKey as string;
  b = new TestClient({ ...h, org: 'other' }, key);
  await b.login();
  bToken = (await deployCredential(b, key)).token;
}, 60_000); // two orgs (key pairs, password hashes): slow on a loaded machine
afterAll(async () => h.close());

function expectTargetOwnKept(): void {
  const settings = orgB().settings;
  expect(settings.scriptLimits).toEqual(TARGET.scriptLimits);
  expect(settings.scriptCounters).toEqual(TARGET.scriptCounters);
}

describe("an org's export", () => {
  it('carries config values as config resources and no limits, counters or console key in env', async () => {
    reset(orgA(), SOURCE);
    const docs = ndjsonLines(await exportOf(a, MANIFEST));
    const env = docs.find((d) => d.object === 'env')!;
    expect(env.settings).toMatchObject({ lockAttempts: 7 });
    for (const key of ['scriptLimits', 'scriptCounters', 'scriptConfig', 'consoleAppKey']) {
      expect(env.settings, key).not.toHaveProperty(key);
    }
    expect(docs.filter((d) => d.object === 'config')).toEqual([
      { object: 'config', resource: 'config.c_greeting', name: 'c_greeting', value: 'hi' },
      { object: 'config', resource: 'config.c_obj', name: 'c_obj', value: { a: 1 } },
    ]);
    // Selected by key, like every section; a top-level includes selects them too.
    const one = ndjsonLines(await exportOf(a, { configs: { includes: ['c_obj'] } }));
    expect(one.filter((d) => d.object !== 'manifest' && !String(d.object).startsWith('manifest-'))).toEqual([
      { object: 'config', resource: 'config.c_obj', name: 'c_obj', value: { a: 1 } },
    ]);
    const all = ndjsonLines(await exportOf(a, { includes: ['*'] }));
    expect(all.filter((d) => d.object === 'config')).toHaveLength(2);
    // mdctl's file tree (env/configs/<name>.json) drops `resource`: the import names it again.
    expect(resourceNameOf({ object: 'config', name: 'c_obj', value: 1 })).toBe('config.c_obj');
  });

  it('imports into another org: its settings and config values apply, its own counters and limits stay', async () => {
    reset(orgA(), SOURCE);
    reset(orgB(), TARGET);
    const res = await importInto(b, await exportOf(a, MANIFEST));
    expect(res.statusCode, res.body).toBe(200);
    const settings = orgB().settings;
    expect(settings.lockAttempts).toBe(7);
    expect(settings.scriptConfig).toEqual({ c_own: 1, c_greeting: 'hi', c_obj: { a: 1 } });
    expectTargetOwnKept();
    // What B's scripts read with require('config').
    expect(new OrgConfigStore(h.svc, orgB()).get('c_obj.a')).toBe(1);
    // A second import of the same export changes nothing.
    const again = await importInto(b, await exportOf(a, MANIFEST), '?dryRun=true');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.body).toContain('"change":"unchanged"');
    expect(again.body).not.toMatch(/"change":"(added|changed)"/);
  });

  it('deploys into another org the same way', async () => {
    reset(orgA(), { ...SOURCE, scriptConfig: { c_deployed: [1, 2] } });
    reset(orgB(), TARGET);
    const made = await a.post('/deployments', {
      name: 'to_other',
      targetOrg: 'other',
      targetToken: bToken,
      manifest: JSON.stringify(MANIFEST),
    });
    expect(made.statusCode, made.body).toBe(200);
    const run = await a.post('/deployments/to_other/run', {});
    expect(run.json(), run.body).toMatchObject({ result: 'complete' });
    expect(run.json().changes).toEqual(
      expect.arrayContaining([
        { resource: 'env', change: 'changed' },
        { resource: 'config.c_deployed', change: 'added' },
      ]),
    );
    expect(orgB().settings.lockAttempts).toBe(7);
    expect(orgB().settings.scriptConfig).toEqual({ c_own: 1, c_deployed: [1, 2] });
    expectTargetOwnKept();
  });
});

describe('an export made before they were left out of env', () => {
  const oldEnv = (settings: Record<string, unknown>) =>
    folder({ object: 'env', resource: 'env', settings: { lockAttempts: 9, ...settings } });

  it("imports where the limits, counters and config equal the target's own (absent = none)", async () => {
    reset(orgB(), TARGET);
    const res = await importInto(b, oldEnv({ ...TARGET, scriptCounters: { runs: 99 } }));
    expect(res.statusCode, res.body).toBe(200);
    expect(orgB().settings.lockAttempts).toBe(9);
    expectTargetOwnKept();
    // An org that has none equals an empty one.
    reset(orgB(), { scriptLimits: {}, scriptCounters: {} });
    const none = await importInto(b, oldEnv({ lockAttempts: 8, scriptCounters: {}, scriptLimits: {} }));
    expect(none.statusCode, none.body).toBe(200);
    expect(orgB().settings.lockAttempts).toBe(8);
  });

  it('refuses the whole document where one differs, naming the key and who sets it', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['scriptLimits', { scriptLimits: { maxJobRunsPerDay: 100_000 } }, 'operator'],
      ['scriptCounters', { scriptCounters: { runs: 0 } }, "require('counters')"],
      ['scriptConfig', { scriptConfig: { c_own: 2 } }, 'config.<key> resource'],
    ];
    for (const [key, settings, who] of cases) {
      reset(orgB(), TARGET);
      const res = await importInto(b, oldEnv(settings));
      expect(res.statusCode, res.body).toBe(400);
      const fault = res.json() as { errCode: string; reason: string; faults: { path: string; reason: string }[] };
      expect(fault.errCode).toBe('service.validation.import');
      expect(fault.faults[0]!.path).toBe('env');
      expect(fault.faults[0]!.reason).toContain(`settings.${key}`);
      expect(fault.faults[0]!.reason).toContain(who);
      // Nothing of the document applied: not its other settings either.
      expect(orgB().settings.lockAttempts).toBe(5);
      expectTargetOwnKept();
      expect(orgB().settings.scriptConfig).toEqual(TARGET.scriptConfig);
    }
  });
});

describe('a config resource', () => {
  it('is refused with a bad key, no value or another name, and nothing is written', async () => {
    reset(orgB(), TARGET);
    const bad = [
      { object: 'config', resource: 'config.bad key', name: 'bad key', value: 1 },
      { object: 'config', resource: 'config.c_null', name: 'c_null', value: null },
      { object: 'config', resource: 'config.c_a', name: 'c_b', value: 1 },
      { object: 'config', resource: 'config.c_big', name: 'c_big', value: 'x'.repeat(1024 * 1024) },
    ];
    for (const doc of bad) {
      const res = await importInto(b, folder(doc));
      expect(res.statusCode, `${doc.resource}: ${res.body}`).toBe(400);
      expect(res.json().faults[0].path).toBe(doc.resource);
    }
    expect(orgB().settings.scriptConfig).toEqual(TARGET.scriptConfig);
  });
});
