/**
 * Hostile write bodies: records (POST/PATCH/PUT), /schemas, /apps, login, register and tokens.
 * Fuzzed bodies answer a success or a 4xx fault — never a 5xx — and a refused write leaves every
 * table as it was. Bodies carrying a prototype-pollution key at any depth, or of the wrong JSON
 * type altogether, are always refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import {
  expectClientFault,
  expectPrototypeClean,
  expectSuccessOrClientFault,
  fuzzParams,
  hostileJson,
  hostileWorld,
  poisonedJsonText,
  type HostileWorld,
} from './fixture.js';

let w: HostileWorld;
beforeAll(async () => {
  w = await hostileWorld();
});
afterAll(async () => {
  expectPrototypeClean();
  await w.h.close();
});

interface Target {
  method: InjectOptions['method'];
  path: () => string;
}

/** Every route that takes a JSON body from a caller. */
const TARGETS: Record<string, Target> = {
  'POST record': { method: 'POST', path: () => '/c_conversations' },
  'PATCH record': { method: 'PATCH', path: () => `/c_conversations/${w.ids.conversation}` },
  'PUT record': { method: 'PUT', path: () => `/c_conversations/${w.ids.conversation}` },
  'POST account': { method: 'POST', path: () => '/accounts' },
  'PATCH account': { method: 'PATCH', path: () => `/accounts/${w.ids.alice}` },
  'POST connection': { method: 'POST', path: () => '/connections' },
  'POST /schemas': { method: 'POST', path: () => '/schemas' },
  'POST /schemas/:name/properties': { method: 'POST', path: () => '/schemas/c_conversation/properties' },
  'PATCH /schemas/:name': { method: 'PATCH', path: () => '/schemas/c_conversation' },
  'POST /apps': { method: 'POST', path: () => '/apps' },
  'PATCH /apps/:key': { method: 'PATCH', path: () => `/apps/${w.signing.key}` },
  'POST /accounts/login': { method: 'POST', path: () => '/accounts/login' },
  'POST /accounts/register': { method: 'POST', path: () => '/accounts/register' },
  'POST tokens': { method: 'POST', path: () => `/accounts/${w.ids.alice}/tokens` },
  'POST /demo-data/jobs': { method: 'POST', path: () => '/demo-data/jobs' },
};

/** Sends a raw JSON text as the admin (session cookie and CSRF token included). */
function send(target: Target, payload: string) {
  return w.admin.request(target.method, target.path(), payload, { 'content-type': 'application/json' });
}

/** Records must be refused whole: the table fingerprint is unchanged after any 4xx. */
async function judge(name: string, target: Target, payload: string, mustRefuse: boolean) {
  const before = w.fingerprint();
  const res = await send(target, payload);
  const context = `${name} ${payload.slice(0, 200)}`;
  if (mustRefuse) expectClientFault(res, context);
  else expectSuccessOrClientFault(res, context);
  if (res.statusCode >= 400) expect(w.fingerprint(), `${context} changed state`).toBe(before);
}

describe.each(Object.entries(TARGETS))('%s', (name, target) => {
  it('answers fuzzed JSON bodies with a success or a 4xx fault, and refuses without a trace', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJson, async (body) => {
        // A fuzzed body that happens to be a valid login must not log the admin out mid-run.
        if (name === 'POST /accounts/login') return;
        await judge(name, target, JSON.stringify(body) ?? 'null', false);
      }),
      { ...fuzzParams(), numRuns: Math.ceil(fuzzParams().numRuns / 3) },
    );
  });

  it('refuses a prototype-pollution key at any depth', async () => {
    await fc.assert(
      fc.asyncProperty(poisonedJsonText, async (payload) => judge(name, target, payload, true)),
      { ...fuzzParams(), numRuns: Math.ceil(fuzzParams().numRuns / 5) },
    );
  });

  // For PATCH an array is an operation list (docs/compatibility.md#patch-and-put): `[]` is a valid empty one.
  const nonObjects = ['null', '[]', '[{}]', '"text"', '42', 'true'].filter(
    (p) => !(p === '[]' && name.startsWith('PATCH')),
  );
  it.each(nonObjects)('refuses the non-object body %s', async (payload) => {
    await judge(name, target, payload, true);
  });
});

describe('record bodies', () => {
  const record = TARGETS['POST record']!;

  it.each([
    ['a NUL inside a string', '{"c_title":"a\\u0000b"}'],
    ['a top-level constructor key', '{"constructor":{"name":"x"}}'],
    ['a top-level prototype key', '{"prototype":{"polluted":true}}'],
    ['a key named toString', '{"toString":"x"}'],
    ['a system property', '{"_id":"000000000000000000000001"}'],
    ['a read-only property', '{"created":"2020-01-01T00:00:00.000Z"}'],
    ['a string far over its maxLength', JSON.stringify({ c_title: 'x'.repeat(100_000) })],
    ['an enum value outside its list', '{"c_status":"hacked"}'],
  ])('refuses %s', async (_label, payload) => {
    await judge('POST record', record, payload, true);
    await judge('PATCH record', TARGETS['PATCH record']!, payload, true);
  });

  it('refuses a non-string email for an account instead of storing "[object Object]"', async () => {
    const payload = JSON.stringify({ email: { toString: 'x' }, password: 'a long enough password' });
    await judge('POST account', TARGETS['POST account']!, payload, true);
    const listed = (await w.admin.get('/accounts?limit=1000')).json().data as { email: string }[];
    expect(listed.some((a) => /object/i.test(a.email))).toBe(false);
  });

  it('refuses a schema whose properties is not an array', async () => {
    await judge('POST /schemas', TARGETS['POST /schemas']!, '{"name":"c_thing","properties":{"length":1}}', true);
  });

  it('refuses a body deeply nested beyond any legitimate record', async () => {
    const deep = '{"c_title":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
    await judge('POST record', record, deep, true);
  });
});
