/** Environment export and import carry a view's declared variables, and check them as a save does. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, type Harness, type TestClient } from '../testing/harness.js';
import { exportOf, importInto, ndjsonLines, twoOrgClients } from '../testing/environment-testing.js';

let h: Harness;
let a: TestClient;
let b: TestClient;

beforeEach(async () => {
  h = await createHarness();
  ({ a, b } = await twoOrgClients(h));
}, 60_000); // two orgs (key pairs, password hashes): slow on a loaded machine
afterEach(async () => h.close());

const VARIABLES = [
  { name: 'title_regex', defaultValue: '/^He/', description: 'A regex written /pattern/flags, e.g. /^He/.' },
  { name: 'status', defaultValue: 'open' },
];
const VIEWS_ONLY = { views: { includes: ['*'] } };

async function createView() {
  const res = await a.post('/views', {
    name: 'by_title',
    sourceObject: 'c_conversation',
    principal: ADMIN_EMAIL,
    acl: [{ type: 'account', target: '*' }],
    query: [{ name: 'where', value: '{"c_title": {"$regex": "{{title_regex}}"}, "c_status": "{{status}}"}' }],
    variables: VARIABLES,
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('a view’s variables in an environment', () => {
  it('round-trip: exported with the view, imported into another org, exported again the same, run with the defaults', async () => {
    await createView();
    const fromA = await exportOf(a, VIEWS_ONLY);
    const view = ndjsonLines(fromA).find((d) => d.resource === 'view.by_title');
    expect(view?.variables).toEqual(VARIABLES);
    const res = await importInto(b, fromA);
    expect(ndjsonLines(res.body).at(-1), res.body).toMatchObject({ stage: 'complete' });
    expect(ndjsonLines(await exportOf(b, VIEWS_ONLY))).toEqual(ndjsonLines(fromA));
    for (const [title, status] of [
      ['Hello', 'open'],
      ['Help', 'closed'],
      ['Goodbye', 'open'],
    ]) {
      expect((await b.post('/c_conversations', { c_title: title, c_status: status })).statusCode).toBe(200);
    }
    const run = await b.get('/views/by_title');
    expect(run.statusCode, run.body).toBe(200);
    expect((run.json() as { data: { c_title: string }[] }).data.map((r) => r.c_title)).toEqual(['Hello']);
  });

  it('refuses an import whose view declares a default that is not a valid argument, and writes nothing', async () => {
    await createView();
    const docs = ndjsonLines(await exportOf(a, VIEWS_ONLY));
    const view = docs.find((d) => d.resource === 'view.by_title')!;
    view.variables = [{ name: 'title_regex', defaultValue: 'He' }];
    const res = await importInto(b, docs.map((d) => JSON.stringify(d)).join('\n'));
    expect(res.json()).toMatchObject({ object: 'fault', errCode: 'service.validation.import' });
    expect(JSON.stringify(res.json())).toContain('variables[0].defaultValue');
    expect((await b.get('/views')).json().data).toEqual([]);
  });
});
