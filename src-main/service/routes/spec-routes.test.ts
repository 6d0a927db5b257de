/** Every route the spec documents names is registered (implemented, never the unrouted fault); nothing else is. */
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

describe('the spec route by route: implemented, or kNotImplemented', () => {
  const id = 'a'.repeat(24);
  const DRIVER_OPERATIONS = ['cursor', 'count', 'readOne', 'insertOne', 'insertMany', 'updateOne', 'updateMany'].concat(
    ['patchOne', 'patchMany', 'deleteOne', 'deleteMany', 'bulk'],
  );
  /** Every route the three spec documents name, with where it is named. */
  const AUDIT: [method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, source: string][] = [
    ['GET', '/accounts', 'docs/API.md'],
    ['GET', '/c_conversations', 'docs/API.md'],
    ['GET', `/c_patientfiles/${id}?connections.limit=5`, 'docs/API.md'],
    ['GET', '/schemas', 'docs/API.md'],
    ['GET', '/auth/certs/jwk', 'docs/API.md'],
    ['GET', '/auth/certs/pem', 'docs/API.md'],
    ['GET', '/apps', 'docs/orgs-and-apps.md#applications'],
    ['POST', '/accounts/register', 'docs/sessions.md'],
    ['POST', '/accounts/login', 'docs/sessions.md'],
    ['POST', '/accounts/me/logout', 'docs/sessions.md'],
    ['GET', '/accounts/me', 'docs/sessions.md'],
    ['GET', '/accounts/status', 'docs/sessions.md'],
    ['POST', '/accounts/me/update-password', 'docs/sessions.md'],
    ['POST', '/accounts/request-password-reset', 'docs/sessions.md'],
    ['POST', '/accounts/reset-password', 'docs/sessions.md'],
    ['POST', `/accounts/${id}/tokens`, 'docs/tokens.md'],
    ['GET', `/accounts/${id}/tokens?app=x`, 'docs/tokens.md'],
    ['DELETE', `/accounts/${id}/tokens/${id}`, 'docs/tokens.md'],
    ['DELETE', `/accounts/${id}/tokens?app=x`, 'docs/tokens.md'],
    ...DRIVER_OPERATIONS.map((op): ['POST', string, string] => ['POST', `/accounts/db/${op}`, 'docs/driver.md']),
    ['POST', '/sys/script_runner', 'docs/scripting.md'],
    ['GET', '/routes/some/path', 'docs/scripting.md#script-routes'],
    ['POST', '/routes/some/path', 'docs/scripting.md#script-routes'],
    ['GET', '/views/c_open', 'docs/views.md'],
    ['POST', '/developer/environment/export', 'docs/configuration.md'],
    ['POST', '/developer/environment/import', 'docs/configuration.md'],
    ['PATCH', `/c_conversations/${id}`, 'docs/compatibility.md#patch-and-put'],
    ['PUT', `/c_conversations/${id}`, 'docs/compatibility.md#patch-and-put'],
    ['PATCH', `/c_conversations/${id}/c_title`, 'docs/compatibility.md#patch-and-put'],
    ['PUT', `/c_conversations/${id}/c_title`, 'docs/compatibility.md#patch-and-put'],
    ['POST', `/c_conversations/${id}/c_participants`, 'docs/compatibility.md#patch-and-put'],
    ['DELETE', `/c_conversations/${id}/c_title`, 'docs/compatibility.md#patch-and-put'],
    ['DELETE', `/c_conversations/${id}`, 'docs/compatibility.md#patch-and-put'],
    [
      'GET',
      `/c_conversations/${id}/c_title`,
      'docs/driver.md/docs/compatibility.md#patch-and-put: a property path of a record',
    ],
    [
      'GET',
      `/accounts/${id}/name/first`,
      'docs/driver.md/docs/compatibility.md#patch-and-put: a property path of a record',
    ],
  ];

  it('every route the spec names is registered (never notFound.route)', async () => {
    const anonymous = new TestClient(h);
    for (const [method, path, source] of AUDIT) {
      const res = await anonymous.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      // The unrouted answer (http/faults-plugin.ts); script routes answer notFound.route themselves
      // when no script handles the path (docs/scripting.md#script-routes), with their own reason.
      const { errCode, reason } = res.json() as { errCode?: string; reason?: string };
      const unrouted = errCode === 'service.notFound.route' && String(reason).startsWith('No route for ');
      expect(unrouted, `${method} ${path} (${source}): ${res.body}`).toBe(false);
      expect(res.statusCode, `${method} ${path} (${source})`).not.toBe(501);
    }
  });

  it('anything else unknown stays notFound.route; a path under an unknown collection names it', async () => {
    expect((await admin.request('PATCH', '/c_conversations')).json().errCode).toBe('service.notFound.route');
    const res = await admin.get('/no/such/route/here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      errCode: 'service.notFound.object',
      reason: 'There is no collection named no.',
    });
  });
});
