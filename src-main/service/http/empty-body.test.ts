/**
 * The original's clients send `Content-Type: application/json` on every call, DELETE included
 * (docs/compatibility.md#requests-cookies-and-fault-codes): an empty body under that header is a request with no body.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

const JSON_HEADER = { 'content-type': 'application/json' };

describe('an empty body with a JSON content type', () => {
  it('deletes a record (DELETE carries the header and no body)', async () => {
    const made = (await admin.post('/c_conversations', { c_title: 'Hello' })).json<{ _id: string }>();
    const res = await admin.request('DELETE', `/c_conversations/${made._id}`, '', JSON_HEADER);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ object: 'result', data: true });
    expect((await admin.get(`/c_conversations/${made._id}`)).statusCode).toBe(404);
  });

  it('is answered exactly as a POST without a body, not as a parse error', async () => {
    const res = await admin.request('POST', '/c_conversations', '', JSON_HEADER);
    expect(res.body).not.toMatch(/Body cannot be empty/);
    const bodiless = await admin.request('POST', '/c_conversations');
    expect(res.statusCode).toBe(bodiless.statusCode);
    expect(res.json()).toEqual(bodiless.json());
    expect(res.json()).toMatchObject({ faults: [{ errCode: 'service.validation.invalidType', path: '' }] });
  });

  it('logs out with a bodiless POST', async () => {
    const res = await admin.request('POST', '/accounts/me/logout', '', JSON_HEADER);
    expect(res.body).not.toMatch(/Body cannot be empty/);
    expect(res.statusCode, res.body).toBeLessThan(400);
  });

  it('still refuses a body that is only whitespace as malformed JSON', async () => {
    const res = await admin.request('POST', '/c_conversations', '  ', JSON_HEADER);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ object: 'fault', code: 'kInvalidArgument' });
  });
});
