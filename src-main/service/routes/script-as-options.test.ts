/**
 * Issue 38, Medium 6: the options of `script.as` — `principal.scope`, `principal.roles`,
 * `principal.skipAcl`, `principal.bypassCreateAcl`, `acl` and `modules` — are honoured, and only
 * ever narrow (scripting/script-as.ts). The first case is the original's own ("Modules ›
 * Script.as": a principal with `scope: ['object.read.*.*.*']` is refused a write).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint } from '../testing/token-testing.js';

let h: Harness;
let admin: TestClient;
let adminId: string;
let aliceId: string;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  adminId = (await admin.get('/accounts/me')).json()._id as string;
  aliceId = await createUser(admin, 'alice@example.test');
  await h.svc.scripts.run({ source: 'return 1' });
}, 60_000);
afterAll(async () => h.close());

/** Runs `body` as the runner's script and answers its value, or `refused: <errCode> <path>`. */
const outcome = async (body: string, client: TestClient | BearerClient = admin) => {
  const res = await client.post('/sys/script_runner', {
    script: `try { ${body} } catch (e) { return 'refused: ' + e.errCode + ' ' + (e.path || '') }`,
    arguments: { admin: adminId, alice: aliceId, key: h.consoleAppKey },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as unknown;
};

const WRITE = `org.objects.accounts.updateOne({ _id: script.arguments.admin }, { $set: { name: { first: 'Changed' } } }).execute()`;
const COUNT_ALL = 'org.objects.accounts.find().toArray().length';
const COUNT_SKIPPING = 'org.objects.accounts.find().skipAcl().grant(6).toArray().length';
const as = (who: string, options: string, expr: string) => `return script.as(${who}, ${options}, () => ${expr})`;

describe('script.as principal options', () => {
  it("principal.scope limits the calls: ['object.read.*.*.*'] reads and is refused a write", async () => {
    const readOnly = "{ principal: { scope: ['object.read.*.*.*'] } }";
    expect(await outcome(as('script.arguments.admin', readOnly, COUNT_ALL))).toBe(2);
    expect(await outcome(as('script.arguments.admin', readOnly, WRITE))).toBe('refused: service.accessDenied.scope ');
    // Without the option the same write passes.
    expect(await outcome(as('script.arguments.admin', '{}', WRITE))).toBe(adminId);
  });

  it("principal.scope never widens a token's scopes", async () => {
    const token = new BearerClient(
      h,
      await mint(admin, adminId, {
        app: h.consoleAppKey,
        scope: ['script.execute.runner', 'admin.update', 'object.read'],
      }),
    );
    const wide = "{ principal: { scope: ['*'] } }";
    expect(await outcome(as('script.arguments.admin', wide, COUNT_ALL), token)).toBe(2);
    expect(await outcome(as('script.arguments.admin', wide, WRITE), token)).toBe(
      'refused: service.accessDenied.scope ',
    );
  });

  it('refuses a principal.scope that is not a list of scope chains', async () => {
    expect(await outcome(as('script.arguments.admin', "{ principal: { scope: ['object..read..x.'] } }", '1'))).toBe(
      'refused: service.invalidArgument.script.as principal.scope',
    );
  });

  it('principal.roles keeps only those roles: [] makes an administrator a plain account', async () => {
    expect(await outcome(as('script.arguments.admin', '{ principal: { roles: [] } }', COUNT_ALL))).toBe(1);
    expect(await outcome(as('script.arguments.admin', '{ principal: { roles: [] } }', WRITE))).toBe(adminId);
    // Naming a role the account does not hold gives it nothing.
    const asAdminRole = "{ principal: { roles: ['000000000000000000000004'] } }";
    expect(await outcome(as('script.arguments.alice', asAdminRole, COUNT_ALL))).toBe(1);
    expect(await outcome(as('script.arguments.admin', asAdminRole, COUNT_ALL))).toBe(2);
  });

  it('principal.skipAcl skips the ACL only for a caller who could skip it', async () => {
    const skip = '{ principal: { skipAcl: true } }';
    expect(await outcome(as('script.arguments.alice', skip, COUNT_ALL))).toBe(2);
    expect(await outcome(as('script.arguments.alice', '{}', COUNT_ALL))).toBe(1);
    const token = new BearerClient(h, await mint(admin, adminId, { app: h.consoleAppKey, scope: ['*'] }));
    expect(await outcome(as('script.arguments.alice', skip, COUNT_ALL), token)).toBe(1);
  });

  it('principal.bypassCreateAcl lets the account create where the create ACL would refuse it', async () => {
    // Only administrators create roles (no create ACL): alice is refused unless the ACL is bypassed.
    const create = "org.objects.roles.insertOne({ name: 'Made by alice', code: 'madebyalice' }).execute().length";
    expect(await outcome(as('script.arguments.alice', '{}', create))).toMatch(/^refused: service.accessDenied/);
    expect(await outcome(as('script.arguments.alice', '{ principal: { bypassCreateAcl: true } }', create))).toBe(24);
  });
});

describe('script.as acl options', () => {
  const plainAdmin = (acl: string) => `{ principal: { roles: [] }, acl: ${acl} }`;

  it("acl.safe: true drops the script's skipAcl and grant; acl.safe: false honours them", async () => {
    expect(await outcome(as('script.arguments.admin', plainAdmin('{ safe: true }'), COUNT_SKIPPING))).toBe(1);
    expect(await outcome(as('script.arguments.admin', plainAdmin('{ safe: false }'), COUNT_SKIPPING))).toBe(2);
  });

  it('acl.safe: false gives a token caller nothing its token lacks', async () => {
    const token = new BearerClient(h, await mint(admin, adminId, { app: h.consoleAppKey, scope: ['*'] }));
    expect(await outcome(as('script.arguments.admin', plainAdmin('{ safe: false }'), COUNT_SKIPPING), token)).toBe(1);
  });

  it('acl.blacklist refuses the options it names', async () => {
    expect(
      await outcome(as('script.arguments.admin', plainAdmin("{ safe: false, blacklist: ['grant'] }"), COUNT_SKIPPING)),
    ).toBe('refused: service.accessDenied.script.as acl.grant');
  });

  it('a nested script.as cannot make a safe acl unsafe', async () => {
    const inner = as('script.arguments.admin', plainAdmin('{ safe: false }'), COUNT_SKIPPING).replace('return ', '');
    expect(await outcome(as('script.arguments.admin', '{ acl: { safe: true } }', inner))).toBe(1);
  });

  it('a nested script.as cannot widen the scope of the one around it', async () => {
    const outer = "{ principal: { scope: ['object.read', 'admin.update'] } }";
    const inner = as('script.arguments.admin', "{ principal: { scope: ['object'] } }", WRITE).replace('return ', '');
    expect(await outcome(as('script.arguments.admin', outer, inner))).toBe('refused: service.accessDenied.scope ');
  });
});

describe('script.as modules options', () => {
  it('a whitelist without script.as refuses a nested script.as', async () => {
    const inner = as('script.arguments.alice', '{}', '1').replace('return ', '');
    expect(await outcome(as('script.arguments.admin', "{ modules: { whitelist: ['objects.*'] } }", inner))).toBe(
      'refused: service.accessDenied.script.as modules',
    );
    const allowed = "{ modules: { whitelist: ['objects.*', 'script.as'] } }";
    expect(await outcome(as('script.arguments.admin', allowed, inner))).toBe(1);
  });

  it('a blacklisted object is refused by every name of the object', async () => {
    const noAccounts = "{ modules: { blacklist: ['objects.accounts'] } }";
    for (const expr of [COUNT_ALL, 'org.objects.account.find().toArray().length', 'org.objects.roles.count()']) {
      const answer = await outcome(as('script.arguments.admin', noAccounts, expr));
      if (expr.includes('roles')) expect(answer).toBeGreaterThan(0);
      else expect(answer).toBe('refused: service.accessDenied.script.as modules');
    }
  });

  it('modules.safe refuses the token functions', async () => {
    const mintIt = 'org.objects.accounts.createAuthToken(script.arguments.key, script.arguments.alice, {})';
    expect(await outcome(as('script.arguments.admin', '{ modules: { safe: true } }', mintIt))).toBe(
      'refused: service.accessDenied.script.as modules',
    );
  });
});
