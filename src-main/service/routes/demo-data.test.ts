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

describe('demo-data jobs', () => {
  it('seeds in the background and reports progress until done', async () => {
    const started = (await admin.post('/demo-data/jobs', { accounts: 50, seed: 9 })).json().data;
    expect(started).toMatchObject({ state: 'running', total: 50 });
    let job = started;
    for (let i = 0; i < 100 && job.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      job = (await admin.get(`/demo-data/jobs/${started.id}`)).json().data;
    }
    expect(job).toMatchObject({ state: 'done', done: 50, total: 50 });
    const list = (await admin.get('/accounts?limit=1000')).json();
    expect(list.data).toHaveLength(51);
  });

  it('refuses bad sizes, unknown jobs and non-administrators', async () => {
    const bad = await admin.post('/demo-data/jobs', { accounts: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ object: 'fault', code: 'kValidationError' });
    expect((await admin.get('/demo-data/jobs/nope')).json()).toMatchObject({ errCode: 'service.notFound.job' });
    await admin.post('/accounts', { email: 'user@example.test', password: 'a long password' });
    const user = new TestClient(h);
    await user.login('user@example.test', 'a long password');
    const denied = await user.post('/demo-data/jobs', { accounts: 5 });
    expect(denied.statusCode).toBe(403);
  });
});
