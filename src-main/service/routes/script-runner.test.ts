/** POST /sys/script_runner (docs/scripting.md) and the script host functions behind it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createHarness, TestClient, ADMIN_EMAIL, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';
import type { FastifyRequest } from 'fastify';
import { scriptRequestOf } from './script-runner.js';

let h: Harness;
let admin: TestClient;
let aliceId: string;
let alice: TestClient;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  aliceId = await createUser(admin, 'alice@example.test');
  alice = new TestClient(h);
  await alice.login('alice@example.test', USER_PASSWORD);
  // The first run loads the engine in the workers; on a busy machine that is slow, and it is not
  // what these tests measure.
  await h.svc.scripts.run({ source: 'return 1' });
}, 60_000);
afterAll(async () => h.close());

const run = (script: string, extra: Record<string, unknown> = {}, client: TestClient | BearerClient = admin) =>
  client.post('/sys/script_runner', { script, language: 'javascript', specification: 'es6', ...extra });

describe('POST /sys/script_runner', () => {
  it('answers primitives as results, arrays as lists, objects as they are, with the stats header', async () => {
    const prim = await run('return 1 + 2');
    expect(prim.statusCode, prim.body).toBe(200);
    expect(prim.json()).toEqual({ object: 'result', data: 3 });
    const stats = JSON.parse(String(prim.headers['service-sandbox-stats'])) as Record<string, number>;
    expect(stats).toMatchObject({ operations: 0, callouts: 0 });
    expect(typeof stats.elapsedMs).toBe('number');
    expect(typeof stats.bytesOut).toBe('number');
    expect(prim.headers['access-control-expose-headers']).toContain('Service-Sandbox-Stats');

    expect((await run('return [1, "a"]')).json()).toEqual({ object: 'list', data: [1, 'a'], hasMore: false });
    expect((await run('return {a: script.arguments.x}', { arguments: { x: 5 } })).json()).toEqual({ a: 5 });
    expect((await run('script.exit("done"); return 1')).json()).toEqual({ object: 'result', data: 'done' });
    expect((await run('return undefined')).json()).toEqual({ object: 'result', data: null });
  });

  it('sends the captured console output with the answer and with a fault', async () => {
    const ok = await run("console.log('hello', 42); return 1;");
    expect(ok.json()).toMatchObject({ object: 'result', data: 1, logs: [{ level: 'log', message: 'hello 42' }] });
    const failed = await run("console.warn('before'); throw new Error('boom');");
    expect(failed.json()).toMatchObject({ object: 'fault', logs: [{ level: 'warn', message: 'before' }] });
  });

  it("names the run's log entry in a header whatever it answered, so its console output can be read", async () => {
    const shapes = [
      "console.log('shape'); return { a: 1 }", // a returned object is the body itself: no logs on it
      "console.log('shape'); script.exit('early')",
      "console.log('shape'); return org.objects.accounts.find().limit(1)", // a cursor
      "console.log('shape'); throw new Error('boom')",
      "console.log('shape'); return 1",
    ];
    for (const script of shapes) {
      const res = await run(script);
      const id = String(res.headers['service-script-log']);
      expect(id, script).toMatch(/^[0-9a-f]{24}$/);
      expect(res.headers['access-control-expose-headers']).toContain('Service-Script-Log');
      const entry = await admin.get(`/logs/${id}`);
      expect(entry.json(), script).toMatchObject({ _id: id, console: [{ level: 'log', message: 'shape' }] });
    }
  });

  it('turns a script error into a fault with a trace naming the line, not a server error', async () => {
    const res = await run('var a = 1;\nvar b = 2;\nthrow new Error("boom");');
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({
      object: 'fault',
      name: 'error',
      code: 'kInvalidArgument',
      errCode: 'service.invalidArgument.script',
      status: 400,
      reason: 'boom',
    });
    expect(body.trace).toBe('Error: boom\n\tmain Script:3');
    expect(body.requestId).toBeUndefined();
    expect(res.headers['service-sandbox-stats']).toBeDefined();
  });

  it('a fault the script raises keeps its own errCode, code and status', async () => {
    const res = await run(
      'var e = new Error("no such thing");\ne.errCode = "service.notFound.thing";\ne.path = "id";\nthrow e;',
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      object: 'fault',
      code: 'kNotFound',
      errCode: 'service.notFound.thing',
      status: 404,
      reason: 'no such thing',
      path: 'id',
      trace: 'Error: no such thing\n\tmain Script:1',
    });
    const plain = await run('throw { errCode: "service.conflict.busy", reason: "try later" }');
    expect(plain.statusCode).toBe(409);
    expect(plain.json()).toMatchObject({ errCode: 'service.conflict.busy', code: 'kConflict', reason: 'try later' });
    const unknown = await run('throw { errCode: "service.bogus.x" }');
    expect(unknown.json()).toMatchObject({ errCode: 'service.invalidArgument.script', status: 400 });
  });

  it('shows the principal, env, org and the request to the script', async () => {
    const res = await run(
      `var r = require('request');
       return { p: script.principal, env: script.env, org: script.org.code, key: r.getHeader('Service-Client-Key'),
                method: r.method, body: r.body, cookie: r.getHeader('cookie') || null }`,
      { body: { hello: 1 } },
    );
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json();
    expect(v.p).toMatchObject({ email: ADMIN_EMAIL });
    expect(v.p._id).toMatch(/^[0-9a-f]{24}$/);
    expect(Array.isArray(v.p.roles)).toBe(true);
    // the base URL as called, port included (docs/tokens.md, like a token's aud)
    expect(v.env).toEqual({ url: 'http://127.0.0.1:7788/demo/v2', name: 'development' });
    expect(v.org).toBe('demo');
    expect(v.key).toBe(h.consoleAppKey);
    expect(v.method).toBe('POST');
    expect(v.body).toEqual({ hello: 1 });
    expect(v.cookie).toBeNull();
  });

  it('is for org administrators only', async () => {
    const res = await run('return 1', {}, alice);
    expect(res.statusCode).toBe(403);
    expect(res.json().errCode).toBe('service.accessDenied.principal');
    const anon = await new TestClient(h).post('/sys/script_runner', { script: 'return 1' });
    expect(anon.statusCode).toBe(403);
  });

  it('needs script.execute.runner from a scope-limited caller', async () => {
    const adminId = (await admin.get('/accounts/me')).json()._id as string;
    const narrow = await mint(admin, adminId, { app: h.consoleAppKey, scope: ['object.read.account'] });
    const denied = await run('return 1', {}, new BearerClient(h, narrow));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errCode).toBe('service.accessDenied.scope');
    for (const scope of ['script.execute.runner', 'script.execute', 'script.execute.*', 'script.*', 'script', '*']) {
      const jwt = await mint(admin, adminId, { app: h.consoleAppKey, scope: [scope] });
      const ok = await run('return 7', {}, new BearerClient(h, jwt));
      expect(ok.statusCode, scope).toBe(200);
    }
  });

  it('refuses unknown body keys and a missing script', async () => {
    expect((await admin.post('/sys/script_runner', { script: 'return 1', nope: 1 })).statusCode).toBe(400);
    expect((await admin.post('/sys/script_runner', { language: 'javascript' })).statusCode).toBe(400);
  });
});

describe('limits', () => {
  it("applies the org's limits; a runaway script does not stall other requests", async () => {
    const org = h.svc.orgs.byCode('demo')!;
    h.svc.orgs.updateSettings(org, { scriptLimits: { timeoutMs: 1500 } });
    try {
      let runawayAnswered = false;
      const runaway = run('while (true) {}').finally(() => {
        runawayAnswered = true;
      });
      const other = await admin.get('/accounts/me');
      // The other request was answered first: it did not wait for the runaway's budget to run out.
      expect(runawayAnswered).toBe(false);
      expect(other.statusCode).toBe(200);
      const res = await runaway;
      expect(res.json().errCode).toBe('service.timeout.script');
    } finally {
      h.svc.orgs.updateSettings(h.svc.orgs.byCode('demo')!, { scriptLimits: {} });
    }
  });
});

describe('a returned cursor (§B: streamed like cursor)', () => {
  const emails = async () => {
    const res = await run('return org.objects.accounts.find().sort({ email: 1 }).paths("email").toArray()');
    return (res.json().data as { email: string }[]).map((a) => a.email);
  };

  it('streams one raw record per line with Accept: application/x-ndjson', async () => {
    const all = await emails();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const res = await admin.post(
      '/sys/script_runner',
      { script: 'const c = org.objects.accounts.find().sort({ email: 1 }).paths("email");\nc.next();\nreturn c;' },
      { accept: 'application/x-ndjson' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const lines = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { email: string; object?: string });
    // The record the script read is not sent again; no envelope, no fault line.
    expect(lines.map((l) => l.email)).toEqual(all.slice(1));
    expect(lines.every((l) => l.object === 'account')).toBe(true);
    expect(res.headers['service-sandbox-stats']).toBeDefined();
  });

  it('answers the list envelope otherwise, limit and skip included, as the run principal sees it', async () => {
    const all = await emails();
    const res = await run('return org.objects.accounts.find().sort({ email: 1 }).paths("email").skip(1).limit(1)');
    expect(res.json()).toMatchObject({ object: 'list', hasMore: false });
    expect(res.json().data.map((a: { email: string }) => a.email)).toEqual(all.slice(1, 2));
    const asAlice = await run(
      'return script.as("alice@example.test", {}, function () { return org.objects.accounts.find() })',
    );
    // script.as ended before the cursor was answered: the rest is read as the run's caller.
    expect(asAlice.json().data.length).toBe(all.length);
  });

  it('pages after the first continue after the last record read, never from a growing skip', async () => {
    const org = h.svc.orgs.byCode('demo')!;
    const all = await emails();
    const store = h.svc.store;
    const list = store.list.bind(store);
    const pages: { object: string; skip: number; continued: boolean }[] = [];
    store.list = ((orgId, def, query, filters, page) => {
      pages.push({ object: def.name, skip: query.skip, continued: page?.after !== undefined });
      return list(orgId, def, query, filters, page);
    }) as typeof store.list;
    h.svc.orgs.updateSettings(org, { scriptLimits: { cursorPageSize: 1 } });
    try {
      const read = await run('return org.objects.accounts.find().sort({ email: 1 }).paths("email").toArray()');
      expect(read.json().data.map((a: { email: string }) => a.email)).toEqual(all);
      const accountPages = pages.filter((p) => p.object === 'account');
      expect(accountPages.length).toBeGreaterThanOrEqual(all.length);
      expect(accountPages.slice(1).every((p) => p.skip === 0 && p.continued)).toBe(true);
      // A returned cursor that read one page goes on after it, streamed by the service.
      const rest = await admin.post(
        '/sys/script_runner',
        { script: 'const c = org.objects.accounts.find().sort({ email: 1 }).paths("email");\nc.next();\nreturn c;' },
        { accept: 'application/x-ndjson' },
      );
      expect(rest.statusCode, rest.body).toBe(200);
      const lines = rest.body.trim().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as { email: string }).email)).toEqual(all.slice(1));
    } finally {
      store.list = list;
      h.svc.orgs.updateSettings(org, { scriptLimits: {} });
    }
  });

  it('is not bound by the output limit: the records are streamed after the run', async () => {
    const org = h.svc.orgs.byCode('demo')!;
    h.svc.orgs.updateSettings(org, { scriptLimits: { maxOutputBytes: 300 } });
    try {
      const array = await run('return org.objects.accounts.find().toArray()');
      expect(array.json().errCode).toBe('service.tooLarge.script.output');
      const cursor = await admin.post(
        '/sys/script_runner',
        { script: 'return org.objects.accounts.find()' },
        { accept: 'application/x-ndjson' },
      );
      expect(cursor.statusCode, cursor.body).toBe(200);
      expect(cursor.body.trim().split('\n').length).toBeGreaterThanOrEqual(2);
    } finally {
      h.svc.orgs.updateSettings(org, { scriptLimits: {} });
    }
  });
});

describe('token host functions', () => {
  it('createAuthToken mints through the shared path; includeEmail adds service/eml; list and revoke work', async () => {
    const res = await run(
      `return org.objects.accounts.createAuthToken(script.arguments.key, script.arguments.sub,
         { permanent: true, scope: ['*'], includeEmail: true })`,
      { arguments: { key: h.consoleAppKey, sub: aliceId } },
    );
    expect(res.statusCode, res.body).toBe(200);
    const jwt = res.json().data as string;
    const claims = decodeJwt(jwt);
    expect(claims).toMatchObject({ iss: h.consoleAppKey, sub: aliceId, 'service/eml': 'alice@example.test' });
    expect(claims.jti).toBeDefined();
    const me = await new BearerClient(h, jwt).get('/accounts/me');
    expect(me.statusCode).toBe(200);

    const listed = await run(
      'return org.objects.accounts.getSubjectTokens(script.arguments.key, script.arguments.sub)',
      {
        arguments: { key: h.consoleAppKey, sub: aliceId },
      },
    );
    expect(listed.json().data.map((t: { jti: string }) => t.jti)).toContain(claims.jti);

    const revoked = await run('return org.objects.accounts.revokeAuthToken(script.arguments.t)', {
      arguments: { t: jwt },
    });
    expect(revoked.json()).toEqual({ object: 'result', data: true });
    expect((await new BearerClient(h, jwt).get('/accounts/me')).statusCode).toBe(403);

    const again = await run(
      `return org.objects.accounts.createAuthToken(script.arguments.key, script.arguments.sub, { permanent: true, scope: ['*'] })`,
      { arguments: { key: h.consoleAppKey, sub: aliceId } },
    );
    expect(again.statusCode, again.body).toBe(200);
    const count = await run(
      'return org.objects.accounts.revokeSubjectTokens(script.arguments.key, script.arguments.sub)',
      {
        arguments: { key: h.consoleAppKey, sub: aliceId },
      },
    );
    expect(count.json()).toEqual({ object: 'result', data: 1 });
  });

  it('a token-authenticated caller needs admin.update to mint from a script', async () => {
    const adminId = (await admin.get('/accounts/me')).json()._id as string;
    const jwt = await mint(admin, adminId, { app: h.consoleAppKey, scope: ['script.execute.runner'] });
    const res = await run(
      `try { org.objects.accounts.createAuthToken(script.arguments.key, script.arguments.sub, {}); return 'minted' }
       catch (e) { return e.errCode }`,
      { arguments: { key: h.consoleAppKey, sub: aliceId } },
      new BearerClient(h, jwt),
    );
    expect(res.json()).toEqual({ object: 'result', data: 'service.accessDenied.scope' });
  });

  it('script.as switches the principal for host calls (administrators only)', async () => {
    const res = await run(
      `return script.as(script.arguments.who, {}, function () {
         return { me: script.principal.email, n: org.objects.accounts.find().toArray().length };
       })`,
      { arguments: { who: 'alice@example.test' } },
    );
    expect(res.statusCode, res.body).toBe(200);
    // Alice reads only her own account.
    expect(res.json()).toEqual({ me: 'alice@example.test', n: 1 });
  });
});

describe('the request a script sees (issue 38, Low 6)', () => {
  const headersSeen = async (client: TestClient | BearerClient) => {
    const res = await run("return Object.keys(require('request').headers).join(' ')", {}, client);
    expect(res.statusCode, res.body).toBe(200);
    return String(res.json().data).split(' ');
  };

  it("holds none of the caller's credentials: no cookie, CSRF token or bearer token", async () => {
    const session = await headersSeen(admin);
    expect(admin.csrf).toBeDefined();
    expect(session).toContain('service-client-key');
    expect(session).not.toContain('cookie');
    expect(session).not.toContain('service-csrf-token');
    const jwt = await mint(admin, (await admin.get('/accounts/me')).json()._id, {
      app: h.consoleAppKey,
      scope: ['*'],
    });
    const bearer = await headersSeen(new BearerClient(h, jwt));
    expect(bearer).not.toContain('authorization');
  });

  it('holds no signature headers of a signed request', () => {
    const signed = {
      url: '/demo/v2/routes/x?a=1',
      method: 'POST',
      query: { a: '1' },
      headers: {
        host: '127.0.0.1:7788',
        'Service-Client-Key': 'k',
        'service-client-signature': 's',
        'service-client-timestamp': '1',
        'service-client-nonce': 'n',
        'service-client-account': 'a',
        'service-client-signature-version': '2',
        'service-csrf-token': 'c',
        authorization: 'Bearer x',
        cookie: 'sid=1',
        'x-custom': 'kept',
      },
    } as unknown as FastifyRequest;
    expect(Object.keys(scriptRequestOf(signed, null).headers ?? {}).sort()).toEqual([
      'host',
      'service-client-key',
      'x-custom',
    ]);
  });
});
