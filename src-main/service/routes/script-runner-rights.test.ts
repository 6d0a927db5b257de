/**
 * The rights a script acts with (docs/tokens.md, docs/scopes.md; docs/scripting.md): `script.as` and
 * `createAuthToken` in the runner give a token-authenticated caller nothing its REST calls lack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint } from '../testing/token-testing.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';

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
  // The first run loads the engine in the workers; on a busy machine that is slow.
  await h.svc.scripts.run({ source: 'return 1' });
}, 60_000);
afterAll(async () => h.close());

const run = (client: TestClient | BearerClient, script: string, args: Record<string, unknown> = {}) =>
  client.post('/sys/script_runner', { script, arguments: { key: h.consoleAppKey, admin: adminId, ...args } });

/** A token of the admin account limited to `scope`, minted by the admin session. */
const tokenOf = async (scope: string[], extra: Record<string, unknown> = {}) =>
  new BearerClient(h, await mint(admin, adminId, { app: h.consoleAppKey, scope, ...extra }));

/** Runs `body` and answers its value, or the errCode of what it threw. */
const outcome = async (client: TestClient | BearerClient, body: string, args: Record<string, unknown> = {}) => {
  const res = await run(
    client,
    `try { ${body} } catch (e) { return 'refused: ' + e.errCode + ' ' + (e.path || '') }`,
    args,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as unknown;
};

const WRITE = `org.objects.accounts.updateOne({ _id: script.arguments.admin }, { $set: { name: { first: 'Changed' } } }).execute()`;
const MINT_STAR = `org.objects.accounts.createAuthToken(script.arguments.key, script.arguments.admin, { scope: ['*'], permanent: true })`;
const inAs = (expr: string) => `return script.as(script.arguments.admin, {}, () => ${expr})`;

describe('script.as and a token-authenticated caller', () => {
  it('needs admin.update: admin.read does not let a token act as anyone, itself included', async () => {
    const token = await tokenOf(['script.execute.runner', 'admin.read']);
    expect(await outcome(token, `return ${WRITE}`)).toBe('refused: service.accessDenied.scope ');
    expect(await outcome(token, inAs(WRITE))).toBe('refused: service.accessDenied.scope ');
    expect(await outcome(token, inAs(MINT_STAR))).toBe('refused: service.accessDenied.scope ');
  });

  it("keeps the token's scopes for the account switched to: no write, no wider token", async () => {
    const token = await tokenOf(['script.execute.runner', 'admin.update']);
    // script.as itself is allowed (admin.update) and reads what the token may.
    expect(await outcome(token, inAs('script.principal._id'))).toBe(adminId);
    expect(await outcome(token, inAs(WRITE))).toBe('refused: service.accessDenied.scope ');
    expect(await outcome(token, inAs(MINT_STAR))).toBe('refused: service.accessDenied.scope scope[0]');
    // A token within its own scopes and lifetime (a minted one expires) can still be minted inside script.as.
    const narrow = await outcome(
      token,
      inAs(`org.objects.accounts.createAuthToken(script.arguments.key, script.arguments.admin,
        { scope: ['admin.update'], expiresIn: 60 })`),
    );
    expect(String(narrow)).toMatch(/^eyJ/);
    expect(decodeJwt(String(narrow))['service/scp']).toEqual(['admin.update']);
  });

  it('mints no role of the account switched to that the token holder lacks', async () => {
    const writer = (await admin.post('/roles', { name: 'Writer', code: 'writer', scopes: ['*'] })).json()._id;
    const bobId = await createUser(admin, 'bob@example.test', { roles: [BUILTIN_ROLES.administrator, writer] });
    const token = await tokenOf(['script.execute.runner', 'admin.update']);
    // Bob may give Writer (he holds it); the admin's token may not, and Writer's `*` would widen it.
    const withRole = `return script.as(script.arguments.bob, {}, () => org.objects.accounts.createAuthToken(
      script.arguments.key, script.arguments.alice, { scope: ['admin.update'], roles: [script.arguments.writer], expiresIn: 60 }))`;
    const args = { bob: bobId, alice: aliceId, writer };
    expect(await outcome(token, withRole, args)).toBe('refused: service.accessDenied.scope roles[0]');
    expect(String(await outcome(admin, withRole, args))).toMatch(/^eyJ/);
  });

  it('skips the ACL inside script.as only when the token may skip it', async () => {
    const token = await tokenOf(['*']);
    const skipped = `return script.as(script.arguments.alice, { skipAcl: true },
      () => org.objects.accounts.find().skipAcl().toArray().length)`;
    // Alice alone sees her own account: the token has no skipAcl, so as({skipAcl}) gives none.
    expect(await outcome(token, skipped, { alice: aliceId })).toBe(1);
    expect(await outcome(admin, skipped, { alice: aliceId })).toBeGreaterThan(1);
  });

  it('an admin session still uses script.as to write and to mint a permanent * token', async () => {
    expect(await outcome(admin, inAs(WRITE))).toBe(adminId);
    const minted = await outcome(
      admin,
      `return script.as(script.arguments.admin, {}, () => org.objects.accounts.createAuthToken(
        script.arguments.key, script.arguments.alice, { scope: ['*'], permanent: true }))`,
      { alice: aliceId },
    );
    expect(String(minted)).toMatch(/^eyJ/);
    expect(decodeJwt(String(minted))).toMatchObject({ sub: aliceId, 'service/scp': ['*'] });
    expect(decodeJwt(String(minted)).exp).toBeUndefined();
  });

  it('refuses a principal the script changed after script.as returned it', async () => {
    const forged = `return script.as(script.arguments.alice, {}, () => {
      script.principal._id = script.arguments.admin; return ${WRITE} })`;
    expect(await outcome(admin, forged, { alice: aliceId })).toBe('refused: service.accessDenied.script.as ');
  });
});

describe('createAuthToken and the minting token', () => {
  it('a short-lived token mints no permanent or longer-lived token, in script.as neither', async () => {
    const token = await tokenOf(['*'], { expiresIn: 120 });
    const mintFor = (opts: string) =>
      `org.objects.accounts.createAuthToken(script.arguments.key, script.arguments.admin, ${opts})`;
    expect(await outcome(token, `return ${mintFor("{ scope: ['*'], permanent: true }")}`)).toBe(
      'refused: service.accessDenied.scope permanent',
    );
    expect(await outcome(token, `return ${mintFor("{ scope: ['*'], expiresIn: 86400 }")}`)).toBe(
      'refused: service.accessDenied.scope expiresIn',
    );
    expect(await outcome(token, inAs(mintFor("{ scope: ['*'], permanent: true }")))).toBe(
      'refused: service.accessDenied.scope permanent',
    );
    // One ending before the minting token is fine.
    const shorter = await outcome(token, `return ${mintFor("{ scope: ['*'], expiresIn: 60 }")}`);
    expect(decodeJwt(String(shorter)).exp).toBeDefined();
  });

  it("a minted token's aud is script.env.url, port included, and the token works there", async () => {
    const res = await run(admin, `return [script.env.url, ${MINT_STAR}]`);
    expect(res.statusCode, res.body).toBe(200);
    const [url, jwt] = res.json().data as [string, string];
    expect(url).toBe(`http://127.0.0.1:7788/${h.org}/v2`);
    expect(decodeJwt(jwt).aud).toBe(url);
    expect((await new BearerClient(h, jwt).get('/accounts/me')).statusCode).toBe(200);
    // The aud names the port: the token is not one for a service at another port.
    const elsewhere = await new BearerClient(h, jwt, { host: '127.0.0.1:7799' }).get('/accounts/me');
    expect(elsewhere.json().errCode).toBe('service.accessDenied.invalidJwt');
  });
});
