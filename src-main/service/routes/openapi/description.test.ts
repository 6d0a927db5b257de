import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_CATEGORIES } from '../../../../src-shared/faults.js';
import { createHarness, TestClient, type Harness } from '../../testing/harness.js';
import { describedPath, registeredRoutes } from './install.js';
import { OPERATIONS } from './operations.js';

interface Operation {
  summary?: string;
  tags?: string[];
  operationId?: string;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  'x-undocumented'?: boolean;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

let h: Harness;
let doc: Document;

beforeAll(async () => {
  h = await createHarness();
  const res = await new TestClient(h).get('/_service/openapi.json');
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => h.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );

describe('GET /_service/openapi.json', () => {
  it('is OpenAPI 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes every route the server registered', () => {
    const routes = registeredRoutes(h.server);
    expect(routes.length).toBeGreaterThan(60);
    const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
    const missing = routes
      // Fastify adds a HEAD route to every GET: described by the GET.
      .filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
      // QUERY is OpenAPI 3.2's method; route scripts (all methods) answer it like the others.
      .filter((r) => r.method !== 'QUERY')
      .filter((r) => doc.paths[describedPath(r.url)]?.[r.method.toLowerCase()] === undefined)
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('fails the check when a route is added without being described', async () => {
    const other = await createHarness({ bootstrap: false });
    try {
      other.server.get('/_service/undescribed', async () => ({ ok: true }));
      const res = await new TestClient(other).get('/_service/openapi.json');
      const described = res.json() as Document;
      expect(registeredRoutes(other.server)).toContainEqual({ method: 'GET', url: '/_service/undescribed' });
      expect(described.paths['/_service/undescribed']?.get?.['x-undocumented']).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('documents each operation: summary, tag, answer and faults in the fault shape', () => {
    const statuses = new Set(Object.values(FAULT_CATEGORIES).map((c) => String(c.status)));
    const problems: string[] = [];
    for (const { key, op } of operations()) {
      if (op['x-undocumented']) problems.push(`${key}: no entry in the operation tables`);
      if (!op.summary || op.tags?.length !== 1) problems.push(`${key}: no summary or tag`);
      const codes = Object.keys(op.responses);
      if (!codes.some((c) => /^[23]\d\d$/.test(c))) problems.push(`${key}: no success answer`);
      for (const code of codes.filter((c) => /^[45]/.test(c))) {
        if (!statuses.has(code)) problems.push(`${key}: ${code} is not a fault status`);
        const schema = op.responses[code]?.content?.['application/json']?.schema;
        if (schema?.$ref !== '#/components/schemas/Fault') problems.push(`${key}: ${code} is not a Fault`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no stale entry and unique operation ids', () => {
    const keys = new Set(operations().map((o) => o.key));
    expect(Object.keys(OPERATIONS).filter((k) => !keys.has(k))).toEqual([]);
    const ids = operations().map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('adds no response schema: answers keep members the description does not declare', async () => {
    const client = new TestClient(h);
    const login = await client.login();
    // `access` is not among the documented Account properties; a serializer would have dropped it.
    expect(Object.keys(login.json())).toContain('access');
    const info = await client.get('/_service/info');
    expect(info.json().data.orgs[0]).toEqual({
      code: 'demo',
      name: expect.any(String),
      consoleAppKey: h.consoleAppKey,
    });
  });
});
