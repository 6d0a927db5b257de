/**
 * Configured policies (the original's `org.policies`, mdctl's `env/policies`): imported as mdctl
 * writes them, applied from the org's policy table, exported back. The operator's way back when a
 * policy locks the console out: cli/admin-policy.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestClient } from '../testing/harness.js';
import { exportOf, importInto, ndjsonLines, twoOrgClients } from '../testing/environment-testing.js';

let h: Harness;
let a: TestClient;
let b: TestClient;
beforeEach(async () => {
  h = await createHarness();
  ({ a, b } = await twoOrgClients(h));
}, 60_000);
afterEach(async () => h.close());

/**
 * A policy document as `mdctl env add policy c_no_me` writes it (mdctl-core-schemas'
 * templates/env/policy.js boilerplate, vendor word unchanged: it has none), then given a matcher:
 * the template's empty matchers would apply to nothing.
 */
const TEMPLATE = {
  object: 'policy',
  aclBlacklist: [],
  aclWhitelist: [],
  action: 'Deny',
  active: true,
  appBlacklist: [],
  appWhitelist: [],
  condition: 'and',
  faultCode: 'kAccessDenied',
  faultReason: 'Access denied by policy',
  faultStatusCode: 403,
  halt: false,
  ipBlacklist: [],
  ipWhitelist: [],
  label: 'c_no_me',
  methods: ['get'],
  name: 'c_no_me',
  paths: ['/accounts/me'],
  priority: 0,
  rateLimit: true,
  rateLimitCount: 300,
  rateLimitElements: ['ip'],
  rateLimitReason: 'Too many requests',
  rateLimitWindow: 300,
  redirectStatusCode: 307,
  trace: false,
};

/** `mdctl env import` of a folder: the manifest, then each file's document (without `resource`). */
const folderImport = (...docs: Record<string, unknown>[]) =>
  [{ object: 'manifest', policies: { includes: ['*'] } }, ...docs].map((d) => JSON.stringify(d)).join('\n');

describe('an imported policy document', () => {
  it('as mdctl writes it denies, exports back as it came, and re-imports unchanged', async () => {
    expect((await a.get('/accounts/me')).statusCode).toBe(200);
    const res = await importInto(a, folderImport(TEMPLATE));
    expect(res.statusCode, res.body).toBe(200);
    expect(ndjsonLines(res.body)).toContainEqual(expect.objectContaining({ resource: 'policy.c_no_me', change: 'added' })); // prettier-ignore

    const denied = await a.get('/accounts/me');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ errCode: 'service.accessDenied', reason: 'Access denied by policy' });
    expect((await a.get('/accounts/me', { 'x-other': '1' })).statusCode).toBe(403);
    // Its rate limit (the template's) counts the requests it applies to.
    expect(denied.headers['x-rate-limit-limit']).toBe('300');
    // Other paths and other orgs are not its business.
    expect((await a.get('/scripts')).statusCode).toBe(200);
    expect((await b.get('/accounts/me')).statusCode).toBe(200);

    const exported = ndjsonLines(await exportOf(a, { policies: { includes: ['*'] } }));
    expect(exported.filter((d) => d.object === 'policy')).toEqual([{ ...TEMPLATE, resource: 'policy.c_no_me' }]);
    expect(exported.at(-1)).toEqual({ object: 'manifest-exports', resources: ['policy.c_no_me'] });

    const again = await importInto(a, folderImport(TEMPLATE));
    expect(ndjsonLines(again.body)).toContainEqual(expect.objectContaining({ resource: 'policy.c_no_me', change: 'unchanged' })); // prettier-ignore
  });

  it('imported into another org (an export stream, as a deployment sends it) applies there only', async () => {
    await importInto(a, folderImport({ ...TEMPLATE, paths: ['/routes/c_x'] }));
    const res = await importInto(b, await exportOf(a, { policies: { includes: ['*'] } }));
    expect(res.statusCode, res.body).toBe(200);
    expect(ndjsonLines(await exportOf(b, { policies: { includes: ['*'] } }))[0]).toMatchObject({ name: 'c_no_me', paths: ['/routes/c_x'] }); // prettier-ignore
  });

  it('with the Script action runs its script text for the request: what it returns answers', async () => {
    const script = "const req = require('request')\nif (req.query.stop) return { stoppedBy: 'policy' }";
    const res = await importInto(a, folderImport({ ...TEMPLATE, action: 'Script', script }));
    expect(res.statusCode, res.body).toBe(200);
    expect((await a.get('/accounts/me?stop=1')).json()).toEqual({ stoppedBy: 'policy' });
    // Returning nothing goes on to the route.
    expect((await a.get('/accounts/me')).statusCode).toBe(200);
  });

  it.each([
    [{ if: { $eq: [1, 1] } }, /option if is not supported/],
    [{ action: 'Transform' }, /action Transform is not supported/],
    [{ pipeline: [] }, /option pipeline is not supported/],
    [{ c_extra: 1 }, /option c_extra is not one of the original's policy options/],
    [{ faultStatusCode: 500 }, /faultStatusCode is one of/],
    [{ action: 'Script' }, /a Script policy needs script/],
    [{ action: 'Script', script: 'return (' }, /policy\.c_no_me: script: Line \d+, column \d+: SyntaxError/],
    [{ script: 'return 1' }, /script is run by the Script action only/],
  ])('refuses %j, naming it, and imports nothing', async (change, reason) => {
    const role = { object: 'role', name: 'Policy test', code: 'c_policy_test', scopes: [], include: [] };
    const body = [
      { object: 'manifest', policies: { includes: ['*'] }, roles: { includes: ['*'] } },
      role,
      { ...TEMPLATE, ...change },
    ];
    const res = await importInto(a, body.map((d) => JSON.stringify(d)).join('\n'));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errCode: 'service.validation.import' });
    expect(res.json().reason).toMatch(reason);
    expect(res.json().reason).toContain('policy.c_no_me');
    expect(ndjsonLines(await exportOf(a, { policies: { includes: ['*'] }, roles: { includes: ['c_policy_test'] } }))).toHaveLength(3); // prettier-ignore
    expect((await a.get('/accounts/me')).statusCode).toBe(200);
  });
});
