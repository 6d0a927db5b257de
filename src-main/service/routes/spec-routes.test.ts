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
    ['GET', '/accounts', 'service-interface Endpoints'],
    ['GET', '/c_conversations', 'service-interface Endpoints'],
    ['GET', `/c_patientfiles/${id}?connections.limit=5`, 'service-interface Endpoints'],
    ['GET', '/schemas', 'service-interface Endpoints'],
    ['GET', '/auth/certs/jwk', 'service-interface Endpoints'],
    ['GET', '/auth/certs/pem', 'service-interface Endpoints'],
    ['GET', '/apps', 'decisions §3'],
    ['POST', '/accounts/register', 'decisions §5'],
    ['POST', '/accounts/login', 'decisions §5'],
    ['POST', '/accounts/me/logout', 'decisions §5'],
    ['GET', '/accounts/me', 'decisions §5'],
    ['GET', '/accounts/status', 'decisions §5'],
    ['POST', '/accounts/me/update-password', 'decisions §5'],
    ['POST', '/accounts/request-password-reset', 'decisions §5'],
    ['POST', '/accounts/reset-password', 'decisions §5'],
    ['POST', `/accounts/${id}/tokens`, 'decisions §6'],
    ['GET', `/accounts/${id}/tokens?app=x`, 'decisions §6'],
    ['DELETE', `/accounts/${id}/tokens/${id}`, 'decisions §6'],
    ['DELETE', `/accounts/${id}/tokens?app=x`, 'decisions §6'],
    ...DRIVER_OPERATIONS.map((op): ['POST', string, string] => ['POST', `/accounts/db/${op}`, 'original-clients §A']),
    ['POST', '/sys/script_runner', 'original-clients §B'],
    ['GET', '/routes/some/path', 'original-clients §C'],
    ['POST', '/routes/some/path', 'original-clients §C'],
    ['GET', '/views/c_open', 'original-clients §D'],
    ['POST', '/developer/environment/export', 'original-clients §E'],
    ['POST', '/developer/environment/import', 'original-clients §E'],
    ['PATCH', `/c_conversations/${id}`, 'original-clients §F'],
    ['PUT', `/c_conversations/${id}`, 'original-clients §F'],
    ['PATCH', `/c_conversations/${id}/c_title`, 'original-clients §F'],
    ['PUT', `/c_conversations/${id}/c_title`, 'original-clients §F'],
    ['POST', `/c_conversations/${id}/c_participants`, 'original-clients §F'],
    ['DELETE', `/c_conversations/${id}/c_title`, 'original-clients §F'],
    ['DELETE', `/c_conversations/${id}`, 'original-clients §F'],
    ['GET', `/c_conversations/${id}/c_title`, 'original-clients §A/§F: a property path of a record'],
    ['GET', `/accounts/${id}/name/first`, 'original-clients §A/§F: a property path of a record'],
  ];

  it('every route the spec names is registered (never notFound.route)', async () => {
    const anonymous = new TestClient(h);
    for (const [method, path, source] of AUDIT) {
      const res = await anonymous.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      // The unrouted answer (http/faults-plugin.ts); script routes answer notFound.route themselves
      // when no script handles the path (original-clients.md §C), with their own reason.
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
