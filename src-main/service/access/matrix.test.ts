/**
 * The access matrix: who may do what to which object, written out as a table.
 *
 * Callers: anonymous, a plain account's session (alice), an org administrator's session, and four
 * tokens of alice. Objects: bob's account, bob's c_conversation, and a c_patientfile an
 * administrator created and connected to alice with access 5 (update).
 *
 * Outcomes — lists: `present` (the target is listed), `absent` (the list answers without it),
 * `denied` (a 403 fault). Instance operations: `ok`, `hidden` (404 notFound: the caller may not
 * even read it, so it does not exist for them), `denied` (403: scope, create ACL, or a level
 * below what the operation needs).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { BearerClient, createUser, mint, USER_PASSWORD } from '../testing/token-testing.js';

type ListOutcome = 'present' | 'absent' | 'denied';
type Outcome = 'ok' | 'hidden' | 'denied';
type Row = [list: ListOutcome, read: Outcome, create: Outcome, update: Outcome, remove: Outcome];
type Expectations = Record<'account' | 'c_conversation' | 'c_patientfile', Row>;

const CALLERS = [
  'anonymous',
  'session user',
  'session admin',
  'token object.read.account.*',
  'token property-limited',
  'token skipAcl',
  'token grant 6',
] as const;
type CallerName = (typeof CALLERS)[number];

// prettier-ignore
const EXPECTED: Record<CallerName, Expectations> = {
  //                                      list       read      create    update    delete
  'anonymous': {
    account:                             ['denied',  'denied', 'denied', 'denied', 'denied'],
    c_conversation:                      ['denied',  'denied', 'denied', 'denied', 'denied'],
    c_patientfile:                       ['denied',  'denied', 'denied', 'denied', 'denied'],
  },
  'session user': {
    account:                             ['absent',  'hidden', 'denied', 'hidden', 'hidden'],
    c_conversation:                      ['absent',  'hidden', 'ok',     'hidden', 'hidden'],
    c_patientfile:                       ['present', 'ok',     'ok',     'ok',     'denied'],
  },
  'session admin': {
    account:                             ['present', 'ok',     'ok',     'ok',     'ok'],
    c_conversation:                      ['present', 'ok',     'ok',     'ok',     'ok'],
    c_patientfile:                       ['present', 'ok',     'ok',     'ok',     'ok'],
  },
  'token object.read.account.*': {
    account:                             ['absent',  'hidden', 'denied', 'denied', 'denied'],
    c_conversation:                      ['denied',  'denied', 'denied', 'denied', 'denied'],
    c_patientfile:                       ['denied',  'denied', 'denied', 'denied', 'denied'],
  },
  'token property-limited': {
    account:                             ['absent',  'hidden', 'denied', 'hidden', 'denied'],
    c_conversation:                      ['denied',  'denied', 'denied', 'denied', 'denied'],
    c_patientfile:                       ['present', 'ok',     'denied', 'denied', 'denied'],
  },
  'token skipAcl': {
    account:                             ['present', 'ok',     'denied', 'denied', 'denied'],
    c_conversation:                      ['present', 'ok',     'ok',     'denied', 'denied'],
    c_patientfile:                       ['present', 'ok',     'ok',     'ok',     'denied'],
  },
  'token grant 6': {
    account:                             ['absent',  'hidden', 'denied', 'hidden', 'hidden'],
    c_conversation:                      ['absent',  'hidden', 'ok',     'hidden', 'hidden'],
    c_patientfile:                       ['present', 'ok',     'ok',     'ok',     'ok'],
  },
};

/** Scopes of the property-limited token: names of accounts, and only c_name of patient files. */
const PROPERTY_SCOPES = [
  'object.read.account.*.name',
  'object.update.account.*.name',
  'object.read.c_patientfile.*.c_name',
];

interface Client {
  get(path: string): ReturnType<TestClient['get']>;
  post(path: string, body: unknown): ReturnType<TestClient['get']>;
  patch(path: string, body: unknown): ReturnType<TestClient['get']>;
  delete(path: string): ReturnType<TestClient['get']>;
}

let h: Harness;
let admin: TestClient;
let targets: Record<keyof Expectations, string>;
let aliceId: string;
let serial = 0;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  aliceId = await createUser(admin, 'alice@example.test');
  const bobId = await createUser(admin, 'bob@example.test');
  const bob = new TestClient(h);
  await bob.login('bob@example.test', USER_PASSWORD);
  const conversation = (await bob.post('/c_conversations', { c_title: "Bob's" })).json()._id as string;
  const file = (
    await admin.post('/c_patientfiles', { c_name: 'File', c_mrn: 'MRN-1', c_birth_date: '1970-01-01' })
  ).json();
  const connection = await admin.post('/connections', {
    context: { _id: file._id, object: 'c_patientfile' },
    target: { _id: aliceId, object: 'account' },
    access: 5,
  });
  expect(connection.statusCode, connection.body).toBe(200);
  targets = { account: bobId, c_conversation: conversation, c_patientfile: file._id };
});
afterEach(async () => h.close());

async function callerClient(name: CallerName): Promise<Client> {
  const token = async (body: Record<string, unknown>) =>
    new BearerClient(h, await mint(admin, aliceId, { app: h.consoleAppKey, ...body }));
  switch (name) {
    case 'anonymous':
      return new TestClient(h);
    case 'session user': {
      const client = new TestClient(h);
      await client.login('alice@example.test', USER_PASSWORD);
      return client;
    }
    case 'session admin':
      return admin;
    case 'token object.read.account.*':
      return token({ scope: ['object.read.account.*'] });
    case 'token property-limited':
      return token({ scope: PROPERTY_SCOPES });
    case 'token skipAcl':
      return token({ scope: ['*'], skipAcl: true });
    case 'token grant 6':
      return token({ scope: ['*'], grant: 6 });
  }
}

const COLLECTION = { account: 'accounts', c_conversation: 'c_conversations', c_patientfile: 'c_patientfiles' };

function newBody(object: keyof Expectations): Record<string, unknown> {
  serial++;
  if (object === 'account')
    return { email: `new${serial}@example.test`, password: USER_PASSWORD, name: { first: 'N' } };
  if (object === 'c_conversation') return { c_title: `New ${serial}` };
  return { c_name: `New ${serial}`, c_mrn: `MRN-new-${serial}` };
}

const EDIT = {
  account: { name: { first: 'Edited', last: 'Name' } },
  c_conversation: { c_title: 'Edited' },
  c_patientfile: { c_name: 'Edited' },
};

function outcome(res: { statusCode: number; body: string }): Outcome {
  if (res.statusCode === 200) return 'ok';
  if (res.statusCode === 404) return 'hidden';
  if (res.statusCode === 403) return 'denied';
  throw new Error(`unexpected answer ${res.statusCode}: ${res.body}`);
}

async function observe(client: Client, object: keyof Expectations): Promise<Row> {
  const base = `/${COLLECTION[object]}`;
  const id = targets[object];
  const listed = await client.get(base);
  const list: ListOutcome =
    outcome(listed) === 'ok'
      ? listed.json().data.some((r: { _id: string }) => r._id === id)
        ? 'present'
        : 'absent'
      : (outcome(listed) as 'denied');
  const read = outcome(await client.get(`${base}/${id}`));
  const create = outcome(await client.post(base, newBody(object)));
  const update = outcome(await client.patch(`${base}/${id}`, EDIT[object]));
  const remove = outcome(await client.delete(`${base}/${id}`));
  return [list, read, create, update, remove];
}

describe('access matrix', () => {
  for (const name of CALLERS) {
    it(`${name}`, async () => {
      const client = await callerClient(name);
      const actual: Partial<Expectations> = {};
      for (const object of ['account', 'c_conversation', 'c_patientfile'] as const) {
        actual[object] = await observe(client, object);
      }
      expect(actual).toEqual(EXPECTED[name]);
    });
  }
});
