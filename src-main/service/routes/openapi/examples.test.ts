import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../../testing/harness.js';

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
}
type Document = { paths: Record<string, Record<string, Operation>> };

let h: Harness;
let doc: Document;
/** What the examples' placeholders stand for in this org. */
const placeholders = new Map<string, string>();

beforeAll(async () => {
  h = await createHarness();
  const client = new TestClient(h);
  doc = (await client.get('/_service/openapi.json')).json();
  await client.login();
  const role = await client.post('/roles', { name: 'Example role', code: 'example_role' });
  expect(role.statusCode).toBe(200);
  placeholders.set('<app key>', h.consoleAppKey);
  placeholders.set('<record id>', role.json()._id);
});
afterAll(() => h.close());

/** Replaces the placeholders of an example (in strings at any depth). */
function filled<T>(value: T): T {
  if (value === undefined) return value;
  const text = JSON.stringify(value);
  return JSON.parse([...placeholders].reduce((t, [name, real]) => t.split(name).join(real), text)) as T;
}

/** The request an operation's examples make, or undefined when it has none. */
function exampleRequest(path: string, op: Operation) {
  const params = op.parameters ?? [];
  const body = Object.values(op.requestBody?.content ?? {})[0]?.example;
  const own = params.filter((p) => p.example !== undefined && !(p.in === 'path' && p.name === 'org'));
  if (body === undefined && own.length === 0) return undefined;
  let url = path.replace(/^\/\{org\}\/v2/, '');
  const query = new URLSearchParams();
  for (const p of params) {
    const example = filled(p.example);
    if (p.in === 'path' && p.name !== 'org') url = url.replace(`{${p.name}}`, encodeURIComponent(String(example)));
    if (p.in === 'query' && example !== undefined) {
      for (const v of [example].flat()) query.append(p.name, String(v));
    }
  }
  const search = query.toString();
  return { url: search ? `${url}?${search}` : url, body: body === undefined ? undefined : filled(body) };
}

it('sends every documented example to its route, and none is refused', async () => {
  const refused: string[] = [];
  let sent = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const request = exampleRequest(path, op);
      if (!request) continue;
      expect(request.url, `${method} ${path}: a path parameter without an example`).not.toMatch(/\{/);
      // Each as the administrator in a session of its own (the login and register examples start others).
      const client = new TestClient(h);
      await client.login();
      const res = await client.request(method.toUpperCase() as 'GET', request.url, request.body);
      sent++;
      const body = String(res.headers['content-type']).startsWith('application/json') ? res.json() : undefined;
      if (res.statusCode >= 400 || body?.object === 'fault') {
        refused.push(`${method.toUpperCase()} ${request.url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
    }
  }
  expect(refused).toEqual([]);
  expect(sent).toBeGreaterThanOrEqual(20);
});
