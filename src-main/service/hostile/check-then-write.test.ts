/**
 * Issue #13 item 11: every check-then-write is atomic across processes. TWO service processes on
 * one data folder (two SQLite connections, truly in parallel) race the same check-then-write over
 * real HTTP, and exactly one wins where one may win, and no write is lost where all may:
 *   - a password-reset token and an email-verification token are used once;
 *   - a new-location code's five tries are never exceeded;
 *   - single-session login ("end the others, then start mine") leaves one live session;
 *   - record PATCH/PUT, definition changes and app and org settings patches keep every racing change;
 *   - a script's counter answers each value once, and its config keeps every racing key;
 *   - a definition changed through one process is used by the other at once.
 * (The per-subject token limit races in concurrency.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCliBundle, runAdmin, startServiceProcess, type ServiceProcess } from './service-process.js';
import { ADMIN, loginOverHttp, type HttpSession } from './http-session.js';

let cli: string;
let dataDir: string;
let a: ServiceProcess;
let b: ServiceProcess;
let onA: HttpSession;

beforeAll(async () => {
  cli = await currentCliBundle();
  dataDir = mkdtempSync(join(tmpdir(), 'check-then-write-'));
  a = await startServiceProcess(cli, dataDir, ['--admin-email', ADMIN.email, '--admin-password', ADMIN.password]);
  b = await startServiceProcess(cli, dataDir);
  onA = await loginOverHttp(a.base);
  // Racing logins of one account reserve a guess each: room for all of them.
  await orgSet('lockAttempts', '100');
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

async function orgSet(key: string, value: string): Promise<void> {
  const result = await runAdmin(cli, ['org', 'set', key, value, '--data-dir', dataDir, '--org', 'demo']);
  expect(result.code, result.stderr).toBe(0);
}

type Answer = { status: number; body: Record<string, unknown>; cookie: string };

/** One request to one process; anonymous unless headers say otherwise. */
async function send(
  target: ServiceProcess,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { 'service-client-key': onA.appKey },
): Promise<Answer> {
  const res = await fetch(`${target.base}/demo/v2${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, cookie };
}

/** `n` requests at once, alternating between the two processes. */
function race(n: number, one: (target: ServiceProcess, i: number) => Promise<Answer>): Promise<Answer[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => one(i % 2 ? b : a, i)));
}

const asAdmin = (target: ServiceProcess, method: string, path: string, body?: unknown) =>
  send(target, method, path, body, onA.headers);

async function latestMessage(kind: string, recipient: string): Promise<string> {
  const list = (await (await onA.get('/outbox?limit=50')).json()) as {
    data: { kind: string; recipient: string; body: string }[];
  };
  const found = list.data.find((m) => m.kind === kind && m.recipient === recipient);
  if (!found) throw new Error(`no ${kind} message for ${recipient}`);
  return found.body;
}

async function newAccount(email: string, password: string): Promise<string> {
  const made = await asAdmin(a, 'POST', '/accounts', { email, password, state: 'verified' });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body._id as string;
}

describe('two processes, one data folder: check-then-write (issue #13 item 11)', () => {
  it('uses a password-reset ticket exactly once when 20 uses race', async () => {
    const email = 'reset.racer@example.test';
    await newAccount(email, 'the first long password');
    expect((await send(b, 'POST', '/accounts/request-password-reset', { email })).status).toBe(200);
    const token = /"token":"([\w-]+)"/.exec(await latestMessage('passwordReset', email))![1]!;
    const results = await race(20, (t, i) =>
      send(t, 'POST', '/accounts/reset-password', { token, password: `racing new password ${i}` }),
    );
    const answers = JSON.stringify(results.map((r) => [r.status, r.body.errCode]));
    expect(
      results.filter((r) => r.status === 200),
      answers,
    ).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.body.errCode).toBe('service.accessDenied.invalidToken');
    }
  }, 90_000);

  it('uses an email-verification ticket exactly once when 20 uses race', async () => {
    const email = 'verify.racer@example.test';
    const registered = await send(a, 'POST', '/accounts/register', { email, password: 'a racing long password' });
    expect(registered.status).toBe(200);
    const token = /"token":"([\w-]+)"/.exec(await latestMessage('verification', email))![1]!;
    const results = await race(20, (t) => send(t, 'POST', '/accounts/verify', { token }));
    const answers = JSON.stringify(results.map((r) => [r.status, r.body.errCode]));
    expect(
      results.filter((r) => r.status === 200),
      answers,
    ).toHaveLength(1);
    expect(results.filter((r) => r.body.errCode === 'service.accessDenied.invalidToken')).toHaveLength(19);
  }, 90_000);

  it('leaves exactly one live session when 10 logins of one account race', async () => {
    const email = 'session.racer@example.test';
    const password = 'a racing session password';
    await newAccount(email, password);
    const logins = await race(10, (t) => send(t, 'POST', '/accounts/login', { email, password }));
    expect(logins.map((l) => l.status)).toEqual(Array(10).fill(200));
    const alive = await Promise.all(
      logins.map((l, i) => send(i % 2 ? a : b, 'GET', '/accounts/me', undefined, { ...onA.headers, cookie: l.cookie })),
    );
    expect(alive.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of alive.filter((x) => x.status !== 200)) {
      expect(r.body.errCode).toBe('service.accessDenied.loggedInElsewhere');
    }
  }, 90_000);

  it('never evaluates more than a new-location code’s five tries when 12 logins with wrong codes race', async () => {
    const password = 'a racing location password';
    const login = (t: ServiceProcess, email: string, code?: string) =>
      send(
        t,
        'POST',
        '/accounts/login',
        { email, password, ...(code ? { location: { verificationToken: code } } : {}) },
        { 'service-client-key': onA.appKey, cookie: 'service.fingerprint=race-fingerprint-01' },
      );
    const codeFor = async (email: string) => {
      expect((await login(a, email)).body.errCode).toBe('service.success.newLocation');
      return /\b(\d{6})\b/.exec(await latestMessage('locationCode', email))![1]!;
    };
    await newAccount('location.tries@example.test', password);
    await orgSet('verifyNewLocations', 'true');
    try {
      const code = await codeFor('location.tries@example.test');
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const tries = await race(12, (t) => login(t, 'location.tries@example.test', wrong));
      expect(tries.filter((r) => r.body.errCode === 'service.accessDenied.locationToken')).toHaveLength(5);
      expect(tries.filter((r) => r.body.errCode === 'service.expired.locationToken')).toHaveLength(7);
      // The right code is no use after its five tries.
      expect((await login(b, 'location.tries@example.test', code)).body.errCode).toBe('service.expired.locationToken');
    } finally {
      await orgSet('verifyNewLocations', 'false');
    }
  }, 90_000);

  it('keeps every change when PATCH and PUT of one record race, on a type made through the other process', async () => {
    const made = await asAdmin(a, 'POST', '/schemas', {
      name: 'c_race',
      properties: [
        { name: 'c_title', type: 'String' },
        { name: 'c_tags', type: 'String', array: true },
        ...Array.from({ length: 6 }, (_, i) => ({ name: `c_p${i}`, type: 'Integer' })),
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // Created through B: B uses the definition A just saved.
    const record = await asAdmin(b, 'POST', '/c_races', { c_title: 'race', c_tags: [] });
    expect(record.status, JSON.stringify(record.body)).toBe(200);
    const id = record.body._id as string;
    const pushes = race(20, (t, i) =>
      asAdmin(t, 'PATCH', `/c_races/${id}`, [{ op: 'push', path: 'c_tags', value: `t${i}` }]),
    );
    const puts = race(6, (t, i) => asAdmin(t, 'PUT', `/c_races/${id}`, { [`c_p${i}`]: i }));
    const all = [...(await pushes), ...(await puts)];
    expect(all.map((r) => r.status)).toEqual(Array(26).fill(200));
    const final = (await asAdmin(a, 'GET', `/c_races/${id}`)).body;
    expect([...(final.c_tags as string[])].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `t${i}`).sort());
    for (let i = 0; i < 6; i++) expect(final[`c_p${i}`]).toBe(i);
  }, 90_000);

  it('keeps every property when additions to one definition race through both processes', async () => {
    const made = await asAdmin(a, 'POST', '/schemas', {
      name: 'c_grow',
      properties: [{ name: 'c_seed', type: 'String' }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const added = await race(10, (t, i) =>
      asAdmin(t, 'POST', '/schemas/c_grow/properties', { name: `c_f${i}`, type: 'Integer', indexed: i % 2 === 0 }),
    );
    expect(added.map((r) => r.status)).toEqual(Array(10).fill(200));
    const relabelled = await race(6, (t, i) =>
      asAdmin(t, 'PATCH', '/schemas/c_grow', { properties: { [`c_f${i}`]: { label: `F${i}` } } }),
    );
    expect(relabelled.map((r) => r.status)).toEqual(Array(6).fill(200));
    for (const target of [a, b]) {
      const def = (await asAdmin(target, 'GET', '/schemas/c_grow')).body as {
        properties: { name: string; label?: string }[];
      };
      const names = def.properties.map((p) => p.name);
      for (let i = 0; i < 10; i++) expect(names).toContain(`c_f${i}`);
      for (let i = 0; i < 6; i++) expect(def.properties.find((p) => p.name === `c_f${i}`)?.label).toBe(`F${i}`);
    }
    // Racing creations of one type: exactly one is made, the others answer exists.object.
    const creations = await race(6, (t) => asAdmin(t, 'POST', '/schemas', { name: 'c_once', properties: [] }));
    expect(creations.filter((r) => r.status === 200)).toHaveLength(1);
    expect(creations.filter((r) => r.body.errCode === 'service.exists.object')).toHaveLength(5);
  }, 90_000);

  it("answers every value of a script's counter once, and keeps every config key, when 20 scripts race", async () => {
    const script = (i: number) =>
      `require('config').set('c_race_${i}', ${i}); return require('counters').next('c_race')`;
    const results = await race(20, (t, i) => asAdmin(t, 'POST', '/sys/script_runner', { script: script(i) }));
    expect(
      results.map((r) => r.status),
      JSON.stringify(results[0]!.body),
    ).toEqual(Array(20).fill(200));
    const values = results.map((r) => r.body.data as number).sort((x, y) => x - y);
    expect(values).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const keys = await asAdmin(b, 'POST', '/sys/script_runner', {
      script: "return require('config').keys().filter((k) => k.startsWith('c_race_')).length",
    });
    expect(keys.body.data).toBe(20);
  }, 60_000);

  it('keeps every change when app settings patches race, and when admin CLI processes set org settings at once', async () => {
    const created = await asAdmin(a, 'POST', '/apps', { label: 'patched', kind: 'session' });
    expect(created.status).toBe(200);
    const key = created.body.key as string;
    const patches = [{ label: 'renamed' }, { authDuration: 1234 }, { maxTokensPerPrincipal: 7 }, { csrf: false }];
    const results = await race(patches.length, (t, i) => asAdmin(t, 'PATCH', `/apps/${key}`, patches[i]));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await asAdmin(b, 'GET', `/apps/${key}`)).body).toMatchObject(Object.assign({}, ...patches));

    const settings = {
      sessionRetentionDays: '9',
      outboxRetentionDays: '45',
      anonymousRequestsPerEmail: '7',
      lockDuration: '20',
    };
    await Promise.all(Object.entries(settings).map(([k, v]) => orgSet(k, v)));
    const org = await runAdmin(cli, ['org', 'set', 'lockAttempts', '100', '--data-dir', dataDir, '--org', 'demo']);
    expect(JSON.parse(org.stdout)).toMatchObject({
      sessionRetentionDays: 9,
      outboxRetentionDays: 45,
      anonymousRequestsPerEmail: 7,
      lockDuration: 20,
    });
  }, 90_000);
});
