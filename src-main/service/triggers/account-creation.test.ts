/**
 * An account's create triggers fire for every way an account is created (records/create-account.ts):
 * an administrator's REST create, the driver API, a script's `org.objects.accounts.register`,
 * self-registration and the command line's `admin account create` (one table). A before trigger
 * changes the account or refuses it — then nothing is stored, no credentials, no message — and an
 * after trigger sees the committed account. No trigger ever sees the password, its hash or the
 * account key's secret.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FaultError } from '../../../src-shared/faults.js';
import { ADMIN_EMAIL, createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import type { Org } from '../orgs/orgs.js';
import { accountDef, createAccount, prepareAccount } from '../accounts/accounts.js';
import { presentRecord } from '../objects/present.js';
import { createAccountTriggered } from '../records/triggered-writes.js';
import { afterTriggersSettled } from './engine.js';

let h: Harness;
let admin: TestClient;
let org: Org;
const made: string[] = [];
const PASSWORD = 'a long password 1';

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  org = h.svc.orgs.byCode('demo')!;
}, 60_000);
afterAll(async () => h.close());
beforeEach(async () => {
  for (const id of made.splice(0)) expect((await admin.delete(`/scripts/${id}`)).statusCode).toBe(200);
});

async function trigger(event: string, script: string, extra: Record<string, unknown> = {}) {
  const res = await admin.post('/scripts', {
    label: `account ${event} ${made.length}`,
    type: 'trigger',
    script,
    configuration: { object: 'account', event, ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  made.push(res.json()._id as string);
}

/** Refuses emails starting with "refuse", sets the locale, and prints all it was given. */
const BEFORE = `console.log(JSON.stringify(script.arguments));
if (script.arguments.new.email.indexOf('refuse') === 0) throw { errCode: 'service.validation.noRefuse', reason: 'Refused by a trigger.' };
script.arguments.new.update('locale', 'en_CA');`;
/** Reads the committed account back (as the administrator) and prints what it found. */
const AFTER = `var stored = org.objects.accounts.readOne({ _id: script.context._id }).execute();
console.log('after ' + stored.email + ' ' + stored.locale + ' ' + JSON.stringify(script.arguments));`;

const accounts = () => h.svc.store.count(org.id, accountDef(h.svc, org));
const messages = () => h.svc.outbox.list(org.id, { skip: 0, limit: 1000 }).data.length;
const credentialsOf = (email: string) => h.svc.credentials.byEmail(org.id, email);

/** What the latest trigger runs printed. */
async function printed(limit = 20): Promise<string> {
  const res = await admin.get(`/logs?${listQuery({ where: { stp: 'trigger' }, sort: { _id: -1 }, limit })}`);
  const entries = res.json().data as { console?: { message: string }[] }[];
  return entries.flatMap((e) => (e.console ?? []).map((c) => c.message)).join('\n');
}

type Answer = { _id?: string; email?: string; locale?: string; errCode?: string };
type Way = { name: string; create: (email: string) => Promise<Answer> };
const runner = (script: string) => admin.post('/sys/script_runner', { script });

/** Each way an account is created; each answers the account or the fault. */
const WAYS: Way[] = [
  {
    name: 'REST POST /accounts (an administrator provisions)',
    create: async (email) => (await admin.post('/accounts', { email, password: PASSWORD })).json(),
  },
  {
    name: 'driver API insertOne',
    create: async (email) =>
      (await admin.post('/accounts/db/insertOne', { document: { email, password: PASSWORD }, lean: false })).json(),
  },
  {
    name: 'script org.objects.accounts.register',
    create: async (email) =>
      (await runner(`return org.objects.accounts.register(${JSON.stringify({ email, password: PASSWORD })})`)).json(),
  },
  {
    name: 'self-registration POST /accounts/register',
    create: async (email) => (await new TestClient(h).post('/accounts/register', { email, password: PASSWORD })).json(),
  },
  {
    name: 'command line admin account create',
    // What cli/admin-commands.ts runs (the service's tests do not import the command line).
    create: async (email) => {
      try {
        const prepared = prepareAccount(h.svc, org, { email, password: PASSWORD, state: 'verified' });
        const outcome = await createAccountTriggered(h.svc, org, prepared);
        if (outcome.kind !== 'created') throw new Error('taken');
        return presentRecord(accountDef(h.svc, org), outcome.record, 8) as Answer;
      } catch (e) {
        if (e instanceof FaultError) return e.fault;
        throw e;
      }
    },
  },
];

describe("an account's create triggers, on every way an account is created", () => {
  it.each(WAYS.map((w, i) => [w.name, w, i] as const))(
    '%s: before changes or refuses, after sees the committed account, none sees a secret',
    async (_name, way, i) => {
      await trigger('create.before', BEFORE);
      await trigger('create.after', AFTER, { principal: ADMIN_EMAIL });
      const email = `way${i}@example.test`;
      const created = await way.create(email);
      expect(created, JSON.stringify(created)).toMatchObject({ email, locale: 'en_CA' });
      expect(credentialsOf(email)).toBeDefined();
      const stored = h.svc.store.get(org.id, accountDef(h.svc, org), credentialsOf(email)!.account_id)!;
      expect(stored.doc.locale).toBe('en_CA');

      const before = { accounts: accounts(), messages: messages() };
      const refused = await way.create(`refuse${i}@example.test`);
      expect(refused).toMatchObject({ errCode: 'service.validation.noRefuse', reason: 'Refused by a trigger.' });
      expect(credentialsOf(`refuse${i}@example.test`)).toBeUndefined();
      expect({ accounts: accounts(), messages: messages() }).toEqual(before);

      await afterTriggersSettled(h.svc);
      const seen = await printed();
      expect(seen).toContain(`after ${email} en_CA`);
      expect(seen).toContain(`"email":"refuse${i}@example.test"`);
      expect(seen).not.toContain(PASSWORD);
      expect(seen).not.toContain('scrypt$');
      expect(seen).not.toContain(credentialsOf(email)!.password_hash.split('$').pop()!);
    },
  );
});

describe('what an account trigger is given', () => {
  it("never holds the key's signing secret, and a trigger may not set a password", async () => {
    await trigger('create.before', 'console.log(JSON.stringify(script.arguments));');
    await trigger('create.after', 'console.log(JSON.stringify(script.arguments));');
    const res = await admin.post('/accounts', {
      email: 'keyed@example.test',
      password: PASSWORD,
      key: { secret: 'signing-secret-42' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await afterTriggersSettled(h.svc);
    const seen = await printed(2);
    expect(seen).toContain('keyed@example.test');
    expect(seen).toContain('"fingerprint"');
    expect(seen).not.toContain('signing-secret-42');

    await trigger('create.before', "script.arguments.new.update('password', 'another long password');");
    const set = await admin.post('/accounts', { email: 'setpw@example.test', password: PASSWORD });
    expect(set.json()).toMatchObject({ errCode: 'service.validation.readOnly', path: 'password' });
    expect(credentialsOf('setpw@example.test')).toBeUndefined();
  });
});

describe('registration with a taken email', () => {
  it('runs the same before triggers, so their answer never tells whether the email is taken', async () => {
    await createAccount(h.svc, org, { email: 'refuse-taken@example.test', password: PASSWORD });
    await createAccount(h.svc, org, { email: 'taken@example.test', password: PASSWORD });
    await trigger('create.before', BEFORE);
    const register = async (email: string) =>
      (await new TestClient(h).post('/accounts/register', { email, password: PASSWORD })).json();
    const refusedTaken = await register('refuse-taken@example.test');
    const refusedNew = await register('refuse-new@example.test');
    expect(refusedTaken).toEqual(refusedNew);
    expect(refusedTaken).toMatchObject({ errCode: 'service.validation.noRefuse' });
    const before = accounts();
    expect(await register('taken@example.test')).toMatchObject({ email: 'taken@example.test', locale: 'en_CA' });
    expect(accounts()).toBe(before);
  });
});
