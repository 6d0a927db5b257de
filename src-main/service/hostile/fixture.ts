/**
 * Shared ground for the hostile-input suites: a small world (accounts, a conversation, a patient
 * file with a connection, a signing app), a fingerprint of everything a refused request must leave
 * untouched, and the assertions every answer is judged by. Tests only.
 */
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import fc from 'fast-check';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';

/**
 * Fixed seed and run count in CI (deterministic); `npm run fuzz` sets both (random seed, printed).
 * A failing run prints its seed and counterexample path, so it can be replayed with FUZZ_SEED.
 */
export function fuzzParams(): { seed: number; numRuns: number } {
  return { seed: Number(process.env.FUZZ_SEED ?? 42), numRuns: Number(process.env.FUZZ_RUNS ?? 150) };
}

export interface HostileWorld {
  h: Harness;
  admin: TestClient;
  ids: { alice: string; conversation: string; patientfile: string; connection: string };
  signing: { key: string; secret: string };
  /** A digest of every row a refused request must not change (records, schemas, apps, keys, tokens). */
  fingerprint(): string;
}

/**
 * Tables whose rows are the persistent state of the service. Sessions, the replay store, the outbox,
 * locations, password resets and failed-login counters legitimately change on refused requests
 * (that is how lock-out and replay protection work), so they are left out.
 */
const FINGERPRINT_QUERIES = [
  'SELECT * FROM orgs ORDER BY id',
  'SELECT * FROM object_defs ORDER BY org_id, name',
  'SELECT * FROM apps ORDER BY id',
  'SELECT * FROM app_keys ORDER BY id',
  'SELECT * FROM tokens ORDER BY jti',
  'SELECT org_id, account_id, email, password_hash, totp_secret_enc FROM credentials ORDER BY org_id, account_id',
];

export async function hostileWorld(): Promise<HostileWorld> {
  const h = await createHarness();
  const admin = new TestClient(h);
  await admin.login();
  const alice = await createUser(admin, 'alice@example.test');
  const conversation = (await admin.post('/c_conversations', { c_title: 'hello', c_status: 'open' })).json()._id;
  const patientfile = (await admin.post('/c_patientfiles', { c_mrn: 'MRN-1' })).json()._id;
  const conn = await admin.post('/connections', {
    context: { _id: patientfile, object: 'c_patientfile' },
    target: { _id: alice, object: 'account' },
    access: 3,
  });
  expect(conn.statusCode, conn.body).toBe(200);
  const created = await admin.post('/apps', { label: 'integration', kind: 'signing' });
  expect(created.statusCode, created.body).toBe(200);
  const signing = { key: created.json().key as string, secret: created.json().secret as string };
  expect(signing.secret).toMatch(/^[A-Za-z0-9]{64}$/);

  const fingerprint = () => {
    const hash = createHash('sha256');
    const tables = h.svc.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'o[0-9]*_*' ORDER BY name")
      .all() as { name: string }[];
    const queries = [...FINGERPRINT_QUERIES, ...tables.map((t) => `SELECT * FROM "${t.name}" ORDER BY _id`)];
    for (const q of queries) hash.update(q).update(JSON.stringify(h.svc.db.prepare(q).all()));
    return hash.digest('hex');
  };
  return {
    h,
    admin,
    ids: { alice, conversation, patientfile, connection: conn.json()._id },
    signing,
    fingerprint,
  };
}

/** A fault of docs/faults.md with a 4xx status (never a 5xx, never an HTML page or a stack). */
export function expectClientFault(res: LightMyRequestResponse, context = ''): void {
  const where = `${context} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, where).toBeLessThan(500);
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const body = res.json();
  expect(body, where).toMatchObject({
    object: 'fault',
    code: expect.stringMatching(/^k[A-Z]\w+$/),
    errCode: expect.stringMatching(/^service\.\w+/),
    status: res.statusCode,
  });
  expect(res.body, where).not.toMatch(/\n\s+at |SqliteError|SQLITE_|TypeError/);
}

/** Either a list envelope (the query was valid) or a 4xx fault. */
export function expectListOrClientFault(res: LightMyRequestResponse, context = ''): void {
  if (res.statusCode === 200) {
    expect(res.json(), context).toMatchObject({ object: 'list', data: expect.any(Array) });
    return;
  }
  expectClientFault(res, context);
}

/** Either a success (2xx, JSON) or a 4xx fault; never a 5xx. */
export function expectSuccessOrClientFault(res: LightMyRequestResponse, context = ''): void {
  if (res.statusCode >= 200 && res.statusCode < 300) return;
  expectClientFault(res, context);
}

/** Keys that have meant trouble for JavaScript objects and SQL builders. */
export const POISON_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const NASTY_KEYS = [
  ...POISON_KEYS,
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '$where',
  '$expr',
  '$not',
  '$regex',
  '$and',
  '$or',
  '$in',
  '$elemMatch',
  '_id',
  'email',
  'name.last',
  'c_title',
  "name.last'--",
  'name.last"); DROP TABLE credentials; --',
  'email\u0000',
  "$.name') OR 1=1 --",
  'name..last',
  'name.',
  '.name',
  'name[0]',
  'name.last.*',
  'a'.repeat(300),
  '',
];

/** A property name or key: usually a nasty one, sometimes anything at all. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_KEYS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

const nastyString = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '/(a+)+$/', "'; DROP TABLE x; --", '%00', '\\', '"', '/x/g', '/'),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

const scalar = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0),
  fc.boolean(),
  fc.constant(null),
);

/** JSON-able values whose keys are hostile, a few levels deep. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** An object with a prototype-pollution key at a random depth (as raw JSON text: `__proto__` must survive). */
export const poisonedJsonText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('__proto__', 'constructor', 'prototype'),
    fc.array(fc.constantFrom('c_title', 'name', 'properties', 'settings', 'a', 'scope', '0'), { maxLength: 4 }),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map(([poison, path, leaf]) => {
    const inner =
      poison === 'constructor'
        ? `{"constructor":{"prototype":${JSON.stringify(leaf)}}}`
        : `{${JSON.stringify(poison)}:${JSON.stringify(leaf)}}`;
    return path.reduceRight((acc, key) => `{${JSON.stringify(key)}:${acc}}`, inner);
  });

/** Fails if anything was added to Object.prototype (prototype pollution in this process). */
export function expectPrototypeClean(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();
