/**
 * Import bodies as an attacker sends them (issue 38 medium 3, low 6): bad lines by the hundred
 * thousand, gzip bombs, invalid UTF-8. Each is answered with a small fault in the spec's shape,
 * while other orgs' requests keep being answered.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createHarness, TestClient, type Harness } from '../testing/harness.js';
import { exportOf, importInto, twoOrgClients } from '../testing/environment-testing.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_LINES, MAX_LISTED_FAULTS } from '../environment/ndjson-input.js';
import { NDJSON_LINES_PER_TURN } from '../objects/ndjson-lines.js';

let h: Harness;
let a: TestClient;
let b: TestClient;

beforeAll(async () => {
  h = await createHarness();
  ({ a, b } = await twoOrgClients(h));
}, 60_000); // two orgs (key pairs, password hashes): slow on a loaded machine
afterAll(async () => h.close());

const badLines = (n: number) => Buffer.from('x\n'.repeat(n));
const appCount = () => h.svc.db.prepare('SELECT count(*) FROM apps').pluck().get();

describe('environment import of hostile bodies', () => {
  it('lists the first 100 bad lines and counts the rest, in a small fault', async () => {
    const lines = 20_000;
    const res = await importInto(a, gzipSync(badLines(lines)));
    expect(res.statusCode, res.body.slice(0, 500)).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ object: 'fault', errCode: 'service.invalidArgument.import', status: 400 });
    expect(body.faults).toHaveLength(MAX_LISTED_FAULTS);
    expect(body.faults[0]).toMatchObject({ path: 'line 1', reason: 'line 1 is not JSON.' });
    expect(body.faults.at(-1)).toMatchObject({ path: `line ${MAX_LISTED_FAULTS}` });
    // every bad line and the missing manifest-exports, counted
    expect(body.reason).toContain(`${lines + 1} problems`);
    expect(body.reason).toContain(`${lines + 1 - MAX_LISTED_FAULTS} more`);
    expect(res.body.length).toBeLessThan(40_000);
  });

  it('refuses a million-line gzip body (2 KB on the wire) as tooLarge, in the spec shape', async () => {
    const zipped = gzipSync(badLines(1_000_000), { level: 9 });
    expect(zipped.length).toBeLessThan(10_000);
    const res = await importInto(a, zipped);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(413);
    expect(res.json()).toMatchObject({
      object: 'fault',
      code: 'kRequestTooLarge',
      errCode: 'service.tooLarge.import',
      reason: expect.stringContaining(`at most ${MAX_IMPORT_LINES} lines`),
    });
    expect(res.json().faults).toBeUndefined();
  });

  it('refuses a gzip body that decompresses past the limit as tooLarge', async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_IMPORT_BYTES + 1, 0x20), { level: 9 });
    const res = await importInto(a, bomb);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(413);
    expect(res.json()).toMatchObject({ errCode: 'service.tooLarge.import', code: 'kRequestTooLarge' });
  });

  it("keeps answering another org's requests while it reads bad lines", async () => {
    const lines = MAX_IMPORT_LINES - 1_000;
    let turns = 0;
    let importing = true;
    const order: string[] = [];
    let other: Promise<unknown> | undefined;
    const count = () => {
      if (!importing) return;
      turns++;
      // Sent once the import is well into its lines (it takes lines / NDJSON_LINES_PER_TURN turns).
      if (turns === 30) other = b.get('/accounts/me').then((res) => order.push(`other ${res.statusCode}`));
      setImmediate(count);
    };
    setImmediate(count);
    const res = await importInto(a, badLines(lines));
    importing = false;
    order.push(`import ${res.statusCode}`);
    await other;
    expect(turns).toBeGreaterThanOrEqual(lines / NDJSON_LINES_PER_TURN);
    expect(order).toEqual(['other 200', 'import 400']);
  });

  it('refuses invalid UTF-8 like a JSON body does, naming the line, and writes nothing', async () => {
    const apps = appCount();
    const text = (await exportOf(a, { apps: { includes: ['*'] } })).replace(
      /"label":"([^"]*)"/,
      '"label":"$1 \u0001X"',
    );
    const at = text.indexOf('\u0001X');
    const body = Buffer.concat([
      Buffer.from(text.slice(0, at)),
      Buffer.from([0xff, 0xfe]), // never valid in UTF-8
      Buffer.from(text.slice(at + 2)),
    ]);
    const res = await importInto(b, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errCode: 'service.invalidArgument.import' });
    expect(res.json().faults[0]).toMatchObject({ path: 'line 1', reason: 'line 1 is not valid UTF-8.' });
    expect(appCount()).toBe(apps);
  });
});

describe('imported env settings (low 1)', () => {
  /** An export of `other`'s settings with `lockAttempts` etc. replaced by the raw JSON text given. */
  async function settingsImport(name: string, rawValue: string): Promise<string> {
    const text = await exportOf(b, { settings: { includes: ['*'] } });
    const docs = text.trim().split('\n');
    const at = docs.findIndex((l) => l.includes('"object":"env"'));
    expect(at, text).toBeGreaterThanOrEqual(0);
    docs[at] = docs[at]!.replace(new RegExp(`"${name}":[^,}]+`), `"${name}":${rawValue}`);
    expect(docs[at]).toContain(`"${name}":${rawValue}`);
    return docs.join('\n');
  }

  it.each([
    ['lockAttempts', '0'],
    ['lockAttempts', '-3'],
    ['lockAttempts', '2.5'],
    ['lockAttempts', '1e999'],
    ['lockDuration', '-10'],
    ['sessionRetentionDays', '0'],
    ['anonymousRequestsPerOrg', '1e15'],
    ['registrationEnabled', '"yes"'],
  ])('refuses %s %s, naming it, and keeps the settings', async (name, raw) => {
    const before = h.svc.orgs.byCode('other')!.settings;
    const res = await importInto(b, await settingsImport(name, raw));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errCode: 'service.validation.import' });
    expect(res.json().reason).toContain(`${name} must be`);
    expect(h.svc.orgs.byCode('other')!.settings).toEqual(before);
  });

  it('takes settings inside their ranges', async () => {
    const res = await importInto(b, await settingsImport('lockAttempts', '1000'));
    expect(res.statusCode, res.body).toBe(200);
    expect(h.svc.orgs.byCode('other')!.settings.lockAttempts).toBe(1000);
  });

  it('an org whose stored lockAttempts is null (an import before the check) still logs in', async () => {
    const org = h.svc.orgs.byCode('other')!;
    const stored = JSON.parse(
      h.svc.db.prepare('SELECT settings FROM orgs WHERE id = ?').pluck().get(org.id) as string,
    ) as Record<string, unknown>;
    h.svc.db
      .prepare('UPDATE orgs SET settings = ? WHERE id = ?')
      .run(JSON.stringify({ ...stored, lockAttempts: null }), org.id);
    h.svc.versions.bump();
    expect(h.svc.orgs.byCode('other')!.settings.lockAttempts).toBe(5);
    const fresh = new TestClient({ ...h, org: 'other' }, org.settings.consoleAppKey);
    const res = await fresh.post('/accounts/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
  });
});
