/**
 * Environment export/import over HTTP for tests: a second org beside the harness's own (both with
 * the harness's administrator), an export as NDJSON text, its lines parsed, and an import.
 */
import { expect } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TestClient, type Harness } from './harness.js';
import { bootstrapOrg } from '../bootstrap.js';

/** Logged-in administrators of the harness's org (`a`) and of a fresh org `other` (`b`). */
export async function twoOrgClients(h: Harness): Promise<{ a: TestClient; b: TestClient }> {
  const a = new TestClient(h);
  await a.login();
  const other = await bootstrapOrg(h.svc, { code: 'other', adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
  const b = new TestClient({ ...h, org: 'other' }, other.consoleAppKey);
  await b.login();
  return { a, b };
}

export async function exportOf(client: TestClient, manifest: unknown): Promise<string> {
  const res = await client.post('/developer/environment/export', { manifest }, { accept: 'application/x-ndjson' });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('application/x-ndjson');
  return res.body;
}

export const ndjsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

export function importInto(
  client: TestClient,
  body: string | Buffer,
  query = '',
  headers: Record<string, string> = {},
) {
  return client.request('POST', `/developer/environment/import${query}`, body, {
    'content-type': 'application/x-ndjson',
    ...headers,
  });
}

/**
 * Configuration of every kind in the harness's org, through `a` (its administrator): a custom
 * object, a custom account property, two roles (one including the other), a signing app, an org
 * setting, a view with a role ACL, a record of `c_conversation`, a library and a route script.
 */
export async function configureSample(h: Harness, a: TestClient): Promise<void> {
  const ok = async (p: Promise<{ statusCode: number; body: string }>) => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  await ok(
    a.post('/schemas', {
      name: 'c_thing',
      label: 'Thing',
      properties: [{ name: 'c_size', type: 'Integer', indexed: true }],
    }),
  );
  await ok(a.post('/schemas/account/properties', { name: 'c_team', type: 'String', indexed: true }));
  await ok(a.post('/roles', { name: 'Reader', code: 'reader', scopes: ['object.read.c_conversation'] }));
  const reader = (await a.get(`/roles?where=${encodeURIComponent('{"code":"reader"}')}`)).json().data[0]._id;
  await ok(a.post('/roles', { name: 'Analyst', code: 'analyst', scopes: ['view.execute'], include: [reader] }));
  await ok(a.post('/apps', { label: 'Back end', kind: 'signing', authDuration: 3600 }));
  h.svc.orgs.updateSettings(h.svc.orgs.byCode('demo')!, { lockAttempts: 7 });
  await ok(
    a.post('/views', {
      name: 'open_convs',
      sourceObject: 'c_conversation',
      principal: ADMIN_EMAIL,
      acl: [{ type: 'role', target: 'analyst' }],
      query: [{ name: 'where', value: '{"c_status": "{{status}}"}' }],
    }),
  );
  await ok(a.post('/c_conversations', { c_title: 'Hello', c_status: 'open' }));
  await ok(a.post('/scripts', { name: 'c_helpers', label: 'Helpers', type: 'library', script: 'return 1 + 1' }));
  await ok(
    a.post('/scripts', {
      name: 'c_hello',
      type: 'route',
      active: true,
      script: 'return "hello"',
      configuration: { method: 'get', path: '/hello', principal: ADMIN_EMAIL },
    }),
  );
}
