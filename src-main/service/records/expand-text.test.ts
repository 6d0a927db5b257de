/**
 * A list page with references expanded in the text form (expand.ts `expandedPageText`: the stored
 * text spliced) answers exactly what the object form answers (`expandPage` over presented
 * records), for callers who read everything, top-level properties only, or nothing of the
 * referenced type; for references missing, null, shared by several records, and the owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { createUser } from '../testing/token-testing.js';
import { callerOf, type Caller } from '../access/caller.js';
import type { Org } from '../orgs/orgs.js';
import { listFromArgs } from './list-from-args.js';

let h: Harness;
let org: Org;
let admin: TestClient;
const callers: Record<string, Caller> = {};

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  org = h.svc.orgs.byCode(h.org)!;
  const ok = async (res: Promise<{ statusCode: number; body: string; json(): unknown }>) => {
    const r = await res;
    if (r.statusCode !== 200) throw new Error(r.body);
    return r.json() as { _id: string };
  };
  await ok(
    admin.post('/schemas', {
      name: 'c_kid',
      label: 'kid',
      properties: [
        { name: 'c_string', type: 'String', indexed: true },
        { name: 'c_info', type: 'Document', properties: [{ name: 'c_n', type: 'Number' }] },
      ],
    }),
  );
  await ok(
    admin.post('/schemas', {
      name: 'c_dad',
      label: 'dad',
      properties: [
        { name: 'c_kid', type: 'Reference', refObject: 'c_kid', indexed: true },
        { name: 'c_other', type: 'Reference', refObject: 'c_kid' },
        { name: 'c_name', type: 'String', indexed: true },
      ],
    }),
  );
  const kids = [];
  for (const s of ['a "quoted" \\ kid', 'b', 'c'])
    kids.push(await ok(admin.post('/c_kids', { c_string: s, c_info: { c_n: 1 } })));
  const gone = await ok(admin.post('/c_kids', { c_string: 'gone' }));
  const dads: Record<string, unknown>[] = [
    { c_name: 'one', c_kid: kids[0]!._id, c_other: kids[1]!._id },
    { c_name: 'two', c_kid: kids[0]!._id },
    { c_name: 'three', c_kid: gone._id, c_other: kids[2]!._id },
    { c_name: 'four' },
  ];
  for (const d of dads) await ok(admin.post('/c_dads', d));
  expect((await admin.delete(`/c_kids/${gone._id}`)).statusCode).toBe(200);

  const me = (await admin.get('/accounts/me')).json() as { _id: string; email: string };
  callers.admin = callerOf(h.svc, { org, principal: { accountId: me._id, email: me.email, roles: [] } });
  // Scope-limited callers: whole top-level properties (the text form splices them), a nested
  // property path (the object form only), and no read of the referenced type at all.
  const principal = { accountId: me._id, email: me.email, roles: [] };
  callers.topLevel = callerOf(h.svc, {
    org,
    principal,
    scopes: ['object.read.c_dad.*.c_kid', 'object.read.c_dad.*.c_name', 'object.read.c_kid.*.c_string'],
  });
  callers.nested = callerOf(h.svc, {
    org,
    principal,
    scopes: ['object.read.c_dad', 'object.read.c_kid.*.c_info.c_n'],
  });
  callers.noKids = callerOf(h.svc, { org, principal, scopes: ['object.read.c_dad'] });
  const id = await createUser(admin, 'reader@example.test');
  callers.plainAccount = callerOf(h.svc, {
    org,
    principal: { accountId: id, email: 'reader@example.test', roles: [] },
  });
}, 60_000);
afterAll(async () => h.close());

const QUERIES: Record<string, string>[] = [
  { 'expand[]': 'c_kid', sort: '{"c_name":1}' },
  { 'expand[]': ['c_kid', 'c_other'] as unknown as string },
  { 'expand[]': 'owner', limit: '2' },
  { 'expand[]': 'c_other', where: '{"c_name":{"$in":["one","three"]}}' },
];

describe('expand[] in the text form', () => {
  for (const name of ['admin', 'topLevel', 'nested', 'noKids', 'plainAccount']) {
    it(`answers what the object form answers, for ${name}`, () => {
      const def = h.svc.defs.byName(org.id, 'c_dad')!;
      for (const q of QUERIES) {
        const caller = callers[name]!;
        const asText = listFromArgs(h.svc, org, caller, def, q, { asText: true });
        const asObjects = listFromArgs(h.svc, org, caller, def, q, {});
        expect(typeof asObjects).toBe('object');
        const read = typeof asText === 'string' ? (JSON.parse(asText) as unknown) : asText;
        expect(read, JSON.stringify(q)).toEqual(JSON.parse(JSON.stringify(asObjects)));
      }
    });
  }

  it('takes the text form where it can: whole records, top-level references', () => {
    const def = h.svc.defs.byName(org.id, 'c_dad')!;
    const text = listFromArgs(
      h.svc,
      org,
      callers.admin!,
      def,
      { 'expand[]': 'c_kid', sort: '{"c_name":1}' },
      {
        asText: true,
      },
    );
    expect(typeof text).toBe('string');
    const page = JSON.parse(text as string) as { data: Record<string, { c_string?: string } | undefined>[] };
    // "four" has no kid, "one" and "two" share one, "three"'s kid was deleted: the bare reference stays.
    expect(page.data.map((d) => d.c_kid?.c_string ?? d.c_kid)).toEqual([
      undefined,
      'a "quoted" \\ kid',
      expect.objectContaining({ object: 'c_kid', path: expect.stringContaining('/c_kids/') }),
      'a "quoted" \\ kid',
    ]);
    // The scope-limited caller's page, spliced too: only the properties their scopes name.
    const limited = listFromArgs(
      h.svc,
      org,
      callers.topLevel!,
      def,
      { 'expand[]': 'c_kid', sort: '{"c_name":1}' },
      {
        asText: true,
      },
    );
    expect(typeof limited).toBe('string');
    const second = (JSON.parse(limited as string) as { data: Record<string, unknown>[] }).data[1]!;
    expect(Object.keys(second).sort()).toEqual(['_id', 'access', 'c_kid', 'c_name', 'object']);
    expect(Object.keys(second.c_kid as object).sort()).toEqual(['_id', 'access', 'c_string', 'object']);
    // A projection, a nested path or a reference inside the referenced record: the object form.
    for (const q of [{ 'expand[]': 'c_kid', 'paths[]': 'c_kid' }, { 'expand[]': 'c_kid.owner' }]) {
      expect(typeof listFromArgs(h.svc, org, callers.admin!, def, q, { asText: true })).toBe('object');
    }
  });
});
