/**
 * `admin policy` (docs/cli.md): the way back for an administrator a policy locks out of the
 * console. The command runs on another connection to the service's data folder, as `npm run
 * admin` does, and the running service sees its change at the next request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createHarness, type Harness, type TestClient } from '../service/testing/harness.js';
import { exportOf, importInto, ndjsonLines, twoOrgClients } from '../service/testing/environment-testing.js';
import { openService } from '../service/open-service.js';
import { runPolicyCommand } from './admin-policy.js';
import { CliError } from './args.js';

let h: Harness;
let a: TestClient;
beforeEach(async () => {
  h = await createHarness();
  ({ a } = await twoOrgClients(h));
}, 60_000);
afterEach(async () => h.close());

/** A configured policy, as mdctl's `policy` template writes one (trimmed), denying GET /accounts/me. */
const TEMPLATE = { object: 'policy', name: 'c_no_me', label: 'c_no_me', action: 'Deny', faultCode: 'kAccessDenied', methods: ['get'], paths: ['/accounts/me'], priority: 0 }; // prettier-ignore
const folderImport = (...docs: Record<string, unknown>[]) =>
  [{ object: 'manifest', policies: { includes: ['*'] } }, ...docs].map((d) => JSON.stringify(d)).join('\n');

const cli = (args: string[]) => {
  // Another connection to the data folder, as `npm run admin` is: the running service sees its commit.
  const other = openService({ dataDir: h.dataDir, masterKey: randomBytes(32) });
  try {
    return runPolicyCommand(other, other.orgs.byCode('demo')!, args);
  } finally {
    other.close();
  }
};

describe('admin policy: the way back for a locked-out administrator', () => {
  const LOCKOUT = `const { policy } = require('decorators')
class Lockout {
  @policy
  static everything = { name: 'c_lockout', methods: ['get', 'post', 'patch', 'put', 'delete'], action: 'Deny', priority: 9 }
}
module.exports = Lockout`;

  it('lists, then disables a library policy that refuses every request, and the console works again', async () => {
    await importInto(a, folderImport(TEMPLATE));
    const saved = await a.post('/scripts', { label: 'Lockout', name: 'c_lockout_lib', type: 'library', active: true, script: LOCKOUT, configuration: { export: 'c_lockout_lib' } }); // prettier-ignore
    expect(saved.statusCode, saved.body).toBe(200);
    // Locked out: the console cannot even read, let alone fix, the library.
    expect((await a.get('/scripts')).statusCode).toBe(403);
    expect((await a.patch(`/scripts/${saved.json()._id as string}`, { active: false })).statusCode).toBe(403);

    expect(cli(['list'])).toEqual([
      expect.objectContaining({ source: 'library', name: 'c_lockout', label: 'Lockout.everything', priority: 9, action: 'Deny', active: true }), // prettier-ignore
      expect.objectContaining({ source: 'configuration', name: 'c_no_me', priority: 0, action: 'Deny', active: true }),
    ]);
    expect(cli(['disable', '--name', 'c_lockout'])).toMatchObject({ active: false, inactiveBecause: 'disabled from the command line' }); // prettier-ignore

    expect((await a.get('/scripts')).statusCode).toBe(200);
    const demo = h.svc.orgs.byCode('demo')!;
    const audit = [...h.svc.store.iterate(demo.id, h.svc.defs.byName(demo.id, 'audit')!, { sort: [], skip: 0, limit: 0 })].map((r) => r.doc); // prettier-ignore
    expect(audit).toContainEqual(expect.objectContaining({ cat: 'settings', sub: 'policy', actor: expect.objectContaining({ type: 'cli' }), summary: 'Disabled the policy c_lockout (command line).' })); // prettier-ignore
    // The configured one still applies; disabling it sets its document's active, which its export carries.
    expect((await a.get('/accounts/me')).statusCode).toBe(403);
    cli(['disable', '--name', 'c_no_me']);
    expect((await a.get('/accounts/me')).statusCode).toBe(200);
    expect(ndjsonLines(await exportOf(a, { policies: { includes: ['*'] } }))[0]).toMatchObject({ name: 'c_no_me', active: false }); // prettier-ignore

    // A later save of the library does not switch its policy back on; enable does.
    expect((await a.patch(`/scripts/${saved.json()._id as string}`, { label: 'Lockout 2' })).statusCode).toBe(200);
    expect((await a.get('/scripts')).statusCode).toBe(200);
    cli(['enable', '--name', 'Lockout.everything']);
    expect((await a.get('/scripts')).statusCode).toBe(403);
  });

  it('names what it cannot find or tell apart', () => {
    expect(() => cli(['disable', '--name', 'c_nothing'])).toThrow(CliError);
    expect(() => cli(['disable', '--name', 'c_nothing'])).toThrow(/No policy c_nothing in org demo/);
    expect(() => cli(['disable'])).toThrow(/--name is required/);
    expect(() => cli(['frobnicate'])).toThrow(/unknown policy command/);
  });
});
