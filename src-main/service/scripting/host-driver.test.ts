/** The script host's `driver` function through the real ScriptRunner, on a real service (in-process). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';
import { callerOf, type Caller } from '../access/caller.js';
import type { Org } from '../orgs/orgs.js';
import { ScriptRunner } from './runner.js';
import type { RunResult } from './run-types.js';
import { driverHost } from './host-driver.js';

let h: Harness;
let runner: ScriptRunner;
let org: Org;
let adminCaller: Caller;
let userCaller: Caller;

beforeAll(async () => {
  h = await createHarness();
  runner = new ScriptRunner({ poolSize: 1 });
  const admin = new TestClient(h);
  await admin.login();
  org = h.svc.orgs.byCode(h.org)!;
  const me = (await admin.get('/accounts/me')).json() as { _id: string; email: string };
  adminCaller = callerOf(h.svc, { org, principal: { accountId: me._id, email: me.email, roles: [] } });
  for (let i = 0; i < 7; i++) await createUser(admin, `u${i}@example.test`);
  const userId = await createUser(admin, 'plain@example.test');
  userCaller = callerOf(h.svc, { org, principal: { accountId: userId, email: 'plain@example.test', roles: [] } });
}, 60_000);
afterAll(async () => {
  await runner.close();
  await h.close();
});

function valueOf(r: RunResult): unknown {
  if (!r.ok) throw new Error(`run failed: ${JSON.stringify(r.fault)}`);
  return r.value;
}

const run = (source: string, caller = adminCaller, trustedOptions = false) =>
  runner.run({ source, host: { driver: driverHost(h.svc, org, caller, { trustedOptions }) } });

describe('driverHost', () => {
  it('find().limit(5).toArray(), insertOne, count and readOne run the driver operations', async () => {
    const accounts = valueOf(await run('return org.objects.accounts.find().limit(5).toArray()')) as {
      object: string;
    }[];
    expect(accounts).toHaveLength(5);
    expect(accounts.every((a) => a.object === 'account')).toBe(true);

    const out = valueOf(
      await run(`
        const id = org.objects.c_conversation.insertOne({ c_title: 'from a script', c_status: 'open' }).execute();
        const n = org.objects.c_conversations.count({ c_title: 'from a script' });
        const back = org.objects.c_conversations.readOne({ c_title: 'from a script' }).execute();
        return { id, n, title: back.c_title, same: back._id === id };
      `),
    ) as { id: string; n: number; title: string; same: boolean };
    expect(out).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), n: 1, title: 'from a script', same: true });
    expect(h.svc.store.get(org.id, h.svc.defs.byName(org.id, 'c_conversation')!, out.id)?.doc.c_title).toBe(
      'from a script',
    );
  });

  it('walks a whole cursor with forEach (the prelude asks the host page by page)', async () => {
    const n = valueOf(await run('let n = 0; org.objects.accounts.find().forEach(() => n++); return n')) as number;
    expect(n).toBe(9);
  });

  it('answers as the caller: a plain account sees only what it may, skipAcl dropped unless trusted', async () => {
    const src = 'return org.objects.c_conversations.find().skipAcl(true).toArray().length';
    expect(valueOf(await run(src, userCaller))).toBe(0);
    expect(valueOf(await run(src, userCaller, true))).toBe(1);
  });

  it('a driver fault is a catchable script error with its code', async () => {
    const r = await run(`
      try { org.objects.c_conversations.readOne('0123456789abcdef01234567').execute() }
      catch (e) { return [e.code, e.errCode] }
    `);
    expect(valueOf(r)).toEqual(['kNotFound', 'service.notFound.instance']);
  });
});
