/**
 * Issue 41: trigger and job scripts travel with the configuration — an export carries them (a
 * principal by email), an import into another org checks them as a save does and they run there
 * (triggers fire, jobs are scheduled); a deployment imports through the same code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, type Harness, type TestClient } from '../testing/harness.js';
import { exportOf, importInto, ndjsonLines, twoOrgClients } from '../testing/environment-testing.js';

let h: Harness;
let a: TestClient;
let b: TestClient;

const NO_X = `if (String(script.arguments.new.c_title).includes('x')) {
  throw Fault.create('service.invalidArgument.title', { reason: 'Titles have no x.' })
}`;
const LIBRARY = `import { trigger } from 'decorators'
class Defaults {
  @trigger('create.before', { object: 'c_conversation' })
  static status({ body }) { if (!body('c_status')) body('c_status', 'closed') }
}
module.exports = Defaults`;

beforeAll(async () => {
  h = await createHarness();
  ({ a, b } = await twoOrgClients(h));
  const me = (await a.get('/accounts/me')).json()._id as string;
  const scripts = [
    {
      name: 'c_no_x',
      label: 'No x',
      type: 'trigger',
      script: NO_X,
      configuration: { object: 'c_conversation', event: 'create.before', principal: me },
    },
    { name: 'c_nightly', label: 'Nightly', type: 'job', script: 'return 1', configuration: { cron: '0 3 * * *' } },
    {
      name: 'c_defaults',
      label: 'Defaults',
      type: 'library',
      script: LIBRARY,
      configuration: { export: 'c_defaults' },
    },
  ];
  for (const s of scripts) {
    const res = await a.post('/scripts', { active: true, ...s });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 60_000);
afterAll(async () => h.close());

const manifest = { scripts: { includes: ['c_no_x', 'c_nightly', 'c_defaults'] } };

const importDocs = async (docs: Record<string, unknown>[]) =>
  importInto(b, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');

describe('trigger and job scripts in an environment', () => {
  it('are exported with their configuration, the principal by email', async () => {
    const docs = ndjsonLines(await exportOf(a, manifest));
    expect(docs.find((d) => d.resource === 'script.c_no_x')).toMatchObject({
      type: 'trigger',
      configuration: { object: 'c_conversation', event: 'create.before', principal: ADMIN_EMAIL },
    });
    expect(docs.find((d) => d.resource === 'script.c_nightly')).toMatchObject({
      type: 'job',
      configuration: { cron: '0 3 * * *' },
    });
  });

  it('run in the org they are imported into: its triggers fire, its jobs are scheduled', async () => {
    const res = await importInto(b, await exportOf(a, manifest));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('"complete"');
    const refused = await b.post('/c_conversations', { c_title: 'xylophone' });
    expect(refused.json()).toMatchObject({ errCode: 'service.invalidArgument.title' });
    const made = await b.post('/c_conversations', { c_title: 'fine' });
    expect(made.json(), made.body).toMatchObject({ c_title: 'fine', c_status: 'closed' }); // the library's
    const jobs = (await b.get('/jobs')).json().data as Record<string, unknown>[];
    expect(jobs).toContainEqual(expect.objectContaining({ label: 'Nightly', cron: '0 3 * * *', active: true }));
  });

  it('are checked as a save checks them: a bad event or schedule refuses the import', async () => {
    const exported = ndjsonLines(await exportOf(a, manifest));
    const spoiled = (resource: string, configuration: Record<string, unknown>) =>
      exported.map((d) => (d.resource === resource ? { ...d, configuration } : d));
    const badTrigger = await importDocs(
      spoiled('script.c_no_x', { object: 'c_conversation', event: 'create.sometime' }),
    );
    expect(badTrigger.body, badTrigger.body).toContain('configuration.event');
    const badJob = await importDocs(spoiled('script.c_nightly', { cron: 'every day' }));
    expect(badJob.body, badJob.body).toContain('invalidCron');
    const stored = (await b.get('/scripts')).json().data as { name: string; configuration: Record<string, unknown> }[];
    expect(stored.find((s) => s.name === 'c_no_x')?.configuration.event).toBe('create.before');
    expect(stored.find((s) => s.name === 'c_nightly')?.configuration.cron).toBe('0 3 * * *');
  });
});
