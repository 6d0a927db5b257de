/**
 * An account's email is an email address (docs/compatibility.md#records-and-routes-as-the-original-shapes-them: `email: <EMAIL>`) however it is
 * set: registration, admin create, PATCH/PUT, the driver API, dry runs included. A malformed one is
 * refused like any invalid account property, and never becomes a login.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';

const USER_PASSWORD = 'a long enough user password';
/** The shape a bad `name` gets too: a validation fault whose child names the property. */
const EMAIL_FAULT = {
  object: 'fault',
  code: 'kValidationError',
  errCode: 'service.validation',
  status: 400,
  faults: [{ errCode: 'service.validation.format', path: 'email' }],
};

describe('over HTTP', () => {
  let h: Harness;
  let admin: TestClient;
  let orgId: number;
  beforeEach(async () => {
    h = await createHarness();
    admin = new TestClient(h);
    await admin.login();
    orgId = h.svc.orgs.byCode('demo')!.id;
  });
  afterEach(async () => h.close());

  const login = (email: string) => new TestClient(h).post('/accounts/login', { email, password: USER_PASSWORD });

  async function createUser(email = 'user@example.test'): Promise<string> {
    const res = await admin.post('/accounts', { email, password: USER_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    return res.json()._id as string;
  }

  it('answers a bad email with the same kind of fault as a bad name', async () => {
    const id = await createUser();
    const badName = await admin.patch(`/accounts/${id}`, { name: 5 });
    const badEmail = await admin.patch(`/accounts/${id}`, { email: 'bad' });
    expect(badEmail.json()).toMatchObject(EMAIL_FAULT);
    const { code, errCode, status } = badName.json() as Record<string, unknown>;
    expect(badEmail.json()).toMatchObject({ code, errCode, status });
  });

  it('refuses registration with a malformed email and creates nothing', async () => {
    const res = await new TestClient(h).post('/accounts/register', { email: 'bad', password: USER_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(EMAIL_FAULT);
    expect(h.svc.credentials.byEmail(orgId, 'bad')).toBeUndefined();
    const good = await new TestClient(h).post('/accounts/register', {
      email: 'New.User@Example.test',
      password: USER_PASSWORD,
    });
    expect(good.statusCode, good.body).toBe(200);
  });

  it.each(['also bad', 'x@', 'x@y.'])('refuses an administrator creating an account as %j', async (email) => {
    const res = await admin.post('/accounts', { email, password: USER_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(EMAIL_FAULT);
    expect(h.svc.credentials.byEmail(orgId, email)).toBeUndefined();
  });

  it('names a bad email with the other bad properties in one answer', async () => {
    const res = await admin.post('/accounts', { email: 'bad', password: USER_PASSWORD, name: 5 });
    const paths = (res.json().faults as { path: string }[]).map((f) => f.path).sort();
    expect(paths).toEqual(['email', 'name']);
  });

  it.each(['patch', 'put'] as const)('refuses %s of a malformed email, which never becomes a login', async (verb) => {
    const id = await createUser();
    const res = await admin[verb](`/accounts/${id}`, { email: 'still not an email' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject(EMAIL_FAULT);
    expect((await login('still not an email')).statusCode).toBe(403);
    expect((await login('user@example.test')).statusCode).toBe(200);
    expect((await admin.get(`/accounts/${id}`)).json().email).toBe('user@example.test');
  });

  it('still lets an administrator move an account to a well-formed email', async () => {
    const id = await createUser();
    const res = await admin.patch(`/accounts/${id}`, { email: 'moved@example.test' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await login('moved@example.test')).statusCode).toBe(200);
  });

  it('refuses malformed emails through the driver API, dry runs included', async () => {
    const id = await createUser();
    const db = (op: string, body: unknown) => admin.post(`/accounts/db/${op}`, body);
    const inserts = [
      await db('insertOne', { document: { email: 'bad', password: USER_PASSWORD } }),
      await db('insertOne', { document: { email: 'bad', password: USER_PASSWORD }, dryRun: true }),
      await db('updateOne', { match: id, update: { $set: { email: 'x@' } } }),
      await db('updateOne', { match: id, update: { $set: { email: 'x@' } }, dryRun: true }),
    ];
    for (const res of inserts) expect(res.json(), res.body).toMatchObject(EMAIL_FAULT);
    expect((await login('user@example.test')).statusCode).toBe(200);
    expect((await login('x@')).statusCode).toBe(403);
  });
});
