/**
 * Statements per request on the hot reads (issue #14 item 5), counted by wrapping better-sqlite3's
 * Statement methods: a warm bearer-token read runs what a session read runs — the record read and
 * nothing else (app, key, verified token, account and roles all come from caches that follow the
 * data version). And a token of scope `*` gets list pages written from the stored text, byte for
 * byte what a session gets. A warm signed request adds exactly one statement, the replay store's
 * INSERT (its nonce must be on record, across processes, before the request is answered).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint } from '../testing/token-testing.js';
import { signRequest } from '../auth/signatures/signature.js';

let h: Harness;
let admin: TestClient;
let counting = false;
let ran: string[] = [];
let restore: (() => void) | undefined;

/** Counts every run of every statement (get/all/run/iterate), except the data-version probe. */
function countStatements(db: Database.Database): () => void {
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, unknown>;
  const originals = new Map<string, unknown>();
  for (const method of ['get', 'all', 'run', 'iterate']) {
    const original = proto[method] as (this: Database.Statement, ...args: unknown[]) => unknown;
    originals.set(method, original);
    proto[method] = function (this: Database.Statement, ...args: unknown[]) {
      if (counting && this.source !== 'PRAGMA data_version') ran.push(this.source.replace(/\s+/g, ' ').slice(0, 80));
      return original.apply(this, args);
    };
  }
  return () => {
    for (const [method, original] of originals) proto[method] = original;
  };
}

const adminId = async () => (await admin.get('/accounts/me')).json()._id as string;

async function statementsOf(request: () => Promise<{ statusCode: number; body: string }>): Promise<string[]> {
  await request(); // warm the caches
  ran = [];
  counting = true;
  try {
    const res = await request();
    expect(res.statusCode, res.body).toBe(200);
  } finally {
    counting = false;
  }
  return ran;
}

beforeEach(async () => {
  h = await createHarness();
  restore = countStatements(h.svc.db);
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => {
  restore?.();
  await h.close();
});

describe('statements per request', () => {
  it('a token read and a token list page run only the record query, like a session', async () => {
    const aliceId = await createUser(admin, 'alice@example.test');
    for (const n of [1, 2, 3]) await createUser(admin, `user${n}@example.test`);
    const token = new BearerClient(h, await mint(admin, await adminId(), { app: h.consoleAppKey, scope: ['*'] }));

    expect(await statementsOf(() => admin.get(`/accounts/${aliceId}`))).toHaveLength(1);
    expect(await statementsOf(() => token.get(`/accounts/${aliceId}`))).toHaveLength(1);
    expect(await statementsOf(() => admin.get('/accounts?limit=3'))).toHaveLength(1);
    expect(await statementsOf(() => token.get('/accounts?limit=3'))).toHaveLength(1);
  });
});

/** A GET signed as a client signs it (a fresh nonce each time), through a signing app. */
function signedGet(app: { key: string; secret: string }, version: 1 | 2, extra: Record<string, string> = {}) {
  let n = 0;
  return (path: string) => {
    const url = `/${h.org}/v2${path}`;
    const nonce = `count${String(++n).padStart(11, '0')}`;
    const timestampMs = h.clock.now();
    return h.server.inject({
      method: 'GET',
      url,
      headers: {
        host: '127.0.0.1',
        'service-client-key': app.key,
        'service-client-signature': signRequest({
          apiKey: app.key,
          apiSecret: app.secret,
          url,
          method: 'GET',
          timestampMs,
          version,
          nonce,
        }),
        'service-client-timestamp': String(timestampMs),
        'service-client-nonce': nonce,
        ...(version === 2 ? { 'service-client-signature-version': '2' } : {}),
        ...extra,
      },
    });
  };
}

describe('statements per signed request', () => {
  it('a warm signed read and list page log the nonce, then run the record query, nothing else', async () => {
    const aliceId = await createUser(admin, 'alice@example.test');
    for (const n of [1, 2, 3]) await createUser(admin, `user${n}@example.test`);
    const id = await adminId();
    for (const [version, settings, extra] of [
      [1, { principalId: id }, {}],
      // Named by email through a principal override: the credentials lookup is cached too.
      [2, { principalOverride: true }, { 'service-client-account': 'admin@example.test' }],
    ] as const) {
      const created = await admin.post('/apps', { kind: 'signing', label: `v${version}`, ...settings });
      expect(created.statusCode, created.body).toBe(200);
      const app = created.json() as { key: string; secret: string };
      const get = signedGet(app, version, extra);
      for (const path of [`/accounts/${aliceId}`, '/accounts?limit=3']) {
        const ran = await statementsOf(() => get(path));
        // The nonce goes to the journal's log (one write per event-loop turn, no statement), and
        // into its database in bulk at a checkpoint: the request runs its record query alone.
        expect(ran, ran.join('\n')).toHaveLength(1);
        expect(ran[0]).toMatch(/^SELECT /);
      }
    }
  });
});

describe('list pages for a token of scope *', () => {
  it('are the same bytes as a session gets (written from the stored text)', async () => {
    for (const n of [1, 2, 3])
      await createUser(admin, `user${n}@example.test`, { name: { first: 'Ü', last: `"q${n}"` } });
    const token = new BearerClient(h, await mint(admin, await adminId(), { app: h.consoleAppKey, scope: ['*'] }));
    const bySession = await admin.get('/accounts?limit=10');
    const byToken = await token.get('/accounts?limit=10');
    expect(byToken.statusCode).toBe(200);
    expect(byToken.body).toBe(bySession.body);
  });

  it('are still stripped for a property-limited scope', async () => {
    await createUser(admin, 'user1@example.test');
    const token = new BearerClient(
      h,
      await mint(admin, await adminId(), { app: h.consoleAppKey, scope: ['object.read.account.*.email'] }),
    );
    const res = await token.get('/accounts?limit=10');
    expect(res.statusCode, res.body).toBe(200);
    for (const record of res.json().data as Record<string, unknown>[]) {
      expect(Object.keys(record).sort()).toEqual(['_id', 'access', 'email', 'object'].sort());
    }
  });
});
