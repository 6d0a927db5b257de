import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../testing/harness.js';
import { seedOrg } from './seeder.js';
import { BUILTIN_ROLES } from '../objects/builtin-defs.js';
import { inheritedRoles } from '../access/inherited-roles.js';
import type { Doc } from '../objects/validate.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

const org = () => h.svc.orgs.byCode('demo')!;
const accounts = () => h.svc.defs.byName(org().id, 'account')!;
const all = (name: string) =>
  h.svc.db.prepare(`SELECT _id, doc FROM "o${org().id}_${name}" ORDER BY _id`).all() as { _id: string; doc: string }[];

describe('demo data', () => {
  it('is deterministic for a seed, realistic, and ordered by creation', async () => {
    const progress: number[] = [];
    const result = await seedOrg(h.svc, org(), { accounts: 300, seed: 42, onProgress: (d) => progress.push(d) });
    expect(result).toMatchObject({ accounts: 300, conversations: 30, patientfiles: 15, cancelled: false });
    expect(progress.at(-1)).toBe(300);
    const rows = all('account').filter((r) => JSON.parse(r.doc).email.endsWith('@demo.example'));
    expect(rows).toHaveLength(300);
    const docs = rows.map((r) => JSON.parse(r.doc));
    const created = docs.map((d) => d.created as string);
    expect([...created].sort()).toEqual(created); // _id order is creation order
    expect('object' in docs[0]).toBe(false); // the type is the table, not stored per record
    expect(docs[0].state).toMatch(/^(un)?verified$/);
    expect(docs[0].email).toMatch(/^[a-z]+\.[a-z]+\.\d+@demo\.example$/);
    expect(docs[0].mobile).toMatch(/^\+1\d{10}$/);
    expect(Date.parse(created[0]!)).toBeLessThan(Date.parse(created.at(-1)!) - 365 * 86400_000);
    // Names are skewed: the most common last name is far more frequent than the rarest.
    const counts = new Map<string, number>();
    for (const d of docs) counts.set(d.name.last, (counts.get(d.name.last) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeGreaterThanOrEqual(10);

    const again = await createHarness();
    try {
      await seedOrg(again.svc, again.svc.orgs.byCode('demo')!, { accounts: 300, seed: 42 });
      const other = (again.svc.db.prepare(`SELECT doc FROM "o1_account" ORDER BY _id`).all() as { doc: string }[]).map(
        (r) => JSON.parse(r.doc),
      );
      const strip = (d: { email: string; name: unknown; locale: string }) => [d.email, d.name, d.locale];
      expect(other.filter((d) => d.email.endsWith('@demo.example')).map(strip)).toEqual(docs.map(strip));
    } finally {
      await again.close();
    }
  });

  it('writes the same records whatever the batch size and wherever they are generated', async () => {
    const progress: number[] = [];
    // Bigger batches (the CLI's) from a worker thread, against the defaults: small batches, this thread.
    const options = { accounts: 700, seed: 9, batchSize: 300, generateIn: 'worker' as const };
    await seedOrg(h.svc, org(), { ...options, onProgress: (d) => progress.push(d) });
    expect(progress).toEqual([300, 600, 700]);
    const again = await createHarness();
    try {
      await seedOrg(again.svc, again.svc.orgs.byCode('demo')!, { accounts: 700, seed: 9 });
      for (const name of ['account', 'c_conversation', 'c_patientfile', 'connection']) {
        const other = again.svc.db.prepare(`SELECT _id, doc FROM "o1_${name}" ORDER BY _id`).all() as unknown[];
        const mine = all(name);
        expect(mine.length).toBeGreaterThan(0);
        // The administrator each harness creates differs (its key), and ids carry a per-run part;
        // everything else of every seeded record is the same.
        const seeded = (rows: unknown[]) =>
          (rows as { _id: string; doc: string }[])
            .filter((r) => !r.doc.includes('"admin@example.test"'))
            .map((r) => r.doc.replace(/[0-9a-f]{24}/g, 'ID'));
        expect(seeded(mine)).toEqual(seeded(other));
      }
    } finally {
      await again.close();
    }
  });

  it("derives each account's inherited roles from the org's role graph, as the store does on insert", async () => {
    const roleDef = h.svc.defs.byName(org().id, 'role')!;
    expect(h.svc.store.get(org().id, roleDef, BUILTIN_ROLES.provider)).toBeDefined();
    h.svc.store.update(org().id, roleDef, BUILTIN_ROLES.provider, { include: [BUILTIN_ROLES.support] });
    await seedOrg(h.svc, org(), { accounts: 400, seed: 5, generateIn: 'worker' });
    const rows = all('account').filter((r) => r.doc.includes('@demo.example'));
    const providers = rows.filter((r) => (JSON.parse(r.doc).roles as string[]).includes(BUILTIN_ROLES.provider));
    expect(providers.length).toBeGreaterThan(0);
    for (const { doc } of rows) {
      const parsed = JSON.parse(doc) as Doc;
      const { inherited_roles: stored, ...own } = parsed;
      // What insert would have stored: the document, then what the derivations add, last.
      const expected = { ...own, inherited_roles: inheritedRoles(h.svc, org().id, own.roles) };
      expect(doc).toBe(JSON.stringify(expected));
      expect(stored).toEqual((own.roles as string[]).includes(BUILTIN_ROLES.provider) ? [BUILTIN_ROLES.support] : []);
    }
  });

  it('links patient files to accounts through connections', async () => {
    await seedOrg(h.svc, org(), { accounts: 100, seed: 1 });
    const files = all('c_patientfile');
    const connections = all('connection').map((r) => JSON.parse(r.doc));
    expect(files.length).toBe(5);
    for (const c of connections) expect(files.map((f) => f._id)).toContain(c.context._id);
    expect(connections.length).toBeGreaterThanOrEqual(files.length);
  });

  it('leaves bounded planner statistics that describe the seeded tables (no full ANALYZE: issue 43)', async () => {
    h.svc.db.exec('ANALYZE'); // full, with sqlite_stat4 samples, at the org's first rows
    await seedOrg(h.svc, org(), { accounts: 400, seed: 2 });
    const stat = h.svc.db
      .prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'o1_account' AND idx = 'ix_o1_account__name_last'")
      .get() as { stat: string };
    expect(Number(stat.stat.split(' ')[0])).toBe(h.svc.store.count(org().id, accounts()));
    const samples = h.svc.db.prepare("SELECT count(*) AS n FROM sqlite_stat4 WHERE tbl = 'o1_account'").get() as {
      n: number;
    };
    expect(samples.n).toBe(0);
  });

  it('stops between batches when cancelled, keeping what it wrote, and rebuilds indexes after a bulk load', async () => {
    let calls = 0;
    const result = await seedOrg(h.svc, org(), { accounts: 25_000, seed: 3, shouldCancel: () => ++calls > 2 });
    expect(result.cancelled).toBe(true);
    expect(result.accounts).toBe(10_000);
    expect(h.svc.store.count(org().id, accounts())).toBe(10_001);
    const indexes = h.svc.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'o1_account'")
      .all() as { name: string }[];
    expect(indexes.map((i) => i.name)).toEqual(
      expect.arrayContaining([
        'ix_o1_account__name_last',
        'ux_o1_account__email',
        'ix_o1_account__c_name_last_name_first',
      ]),
    );
  });

  it("creates a bulk load's tables once, not once per batch, and serves requests between batches", async () => {
    const exec = vi.spyOn(h.svc.db, 'exec');
    const createAccounts = () =>
      exec.mock.calls.filter(([sql]) => sql.startsWith(`CREATE TABLE IF NOT EXISTS "o${org().id}_account"`)).length;
    let duringLoad = -1;
    const result = await seedOrg(h.svc, org(), {
      accounts: 25_000, // five batches, above the bulk threshold
      seed: 5,
      onProgress: (done) => {
        // A request on accounts between batches finds the table without asking for it again.
        if (done === 20_000) duringLoad = h.svc.store.count(org().id, accounts());
      },
    });
    expect(result.accounts).toBe(25_000);
    expect(duringLoad).toBe(20_001);
    // Once after the load dropped its indexes, once when it ended and built them again.
    expect(createAccounts()).toBe(2);
    expect(h.svc.store.count(org().id, accounts())).toBe(25_001);
  });

  it('never dates a record later than now, not even the newest accounts', async () => {
    const now = h.svc.clock.now();
    // 10,000 accounts over five years: the newest few were created within a day of the end.
    await seedOrg(h.svc, org(), { accounts: 10_000, seed: 7 });
    const docs = all('account').map((r) => JSON.parse(r.doc) as { created: string; updated?: string });
    const latest = Math.max(...docs.map((d) => Date.parse(d.updated ?? d.created)));
    expect(latest).toBeLessThanOrEqual(now);
    // Updated never precedes created.
    for (const d of docs) expect(Date.parse(d.updated ?? d.created)).toBeGreaterThanOrEqual(Date.parse(d.created));
  });

  it('says when it moves from writing records to rebuilding indexes', async () => {
    const events: string[] = [];
    await seedOrg(h.svc, org(), {
      accounts: 300,
      seed: 1,
      onProgress: (done) => events.push(`done ${done}`),
      onPhase: (phase) => events.push(phase),
    });
    expect(events).toEqual(['done 300', 'indexing']);
  });
});
