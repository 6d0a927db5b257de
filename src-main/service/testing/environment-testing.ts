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
