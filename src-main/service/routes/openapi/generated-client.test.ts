import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { listen } from '../../server.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createHarness, type Harness } from '../../testing/harness.js';

/**
 * A stock generator (openapi-typescript) turns the served description into types; the stock
 * client (openapi-fetch) typed by them must compile and call the running service: a list, a
 * create and a token mint, then a read with the minted token. Written where `openapi-fetch`
 * resolves from (node_modules/.cache), as a user's project would have it.
 */
const CALLS = `
import createClient from 'openapi-fetch';
import type { paths } from './api';

export async function exercise(baseUrl: string, org: string, appKey: string, email: string, password: string) {
  const client = createClient<paths>({ baseUrl });
  const login = await client.POST('/{org}/v2/accounts/login', {
    params: { path: { org } },
    headers: { 'service-client-key': appKey },
    body: { email, password },
  });
  const cookie = login.response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = login.response.headers.get('service-csrf-token') ?? '';
  client.use({
    onRequest({ request }) {
      request.headers.set('service-client-key', appKey);
      request.headers.set('cookie', cookie);
      request.headers.set('service-csrf-token', csrf);
      return request;
    },
  });
  const list = await client.GET('/{org}/v2/{collection}', {
    params: { path: { org, collection: 'accounts' }, query: { limit: '5' } },
  });
  const created = await client.POST('/{org}/v2/{collection}', {
    params: { path: { org, collection: 'roles' } },
    body: { name: 'Generated client', code: 'generated_client' },
  });
  const minted = await client.POST('/{org}/v2/accounts/{id}/tokens', {
    params: { path: { org, id: 'me' } },
    body: { app: appKey, scope: ['object.read.account'], expiresIn: 600 },
  });
  const token: string = minted.data?.data ?? '';
  const bearer = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer ' + token } });
  const me = await bearer.GET('/{org}/v2/accounts/me', { params: { path: { org } } });
  return {
    loggedIn: login.data,
    listed: list.data?.data.map((record) => record._id),
    hasMore: list.data?.hasMore,
    created: created.data?._id,
    token,
    me: me.data?.email,
    faults: [login.error, list.error, created.error, minted.error, me.error].filter((e) => e !== undefined),
  };
}
`;

let h: Harness;
let baseUrl: string;
let dir: string;

beforeAll(async () => {
  h = await createHarness();
  baseUrl = `http://127.0.0.1:${await listen(h.server, 0)}`;
  const cache = resolve('node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  dir = mkdtempSync(join(cache, 'openapi-client-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

it('generates a client from /_service/openapi.json that compiles and calls the service', async () => {
  // The description as served: text, which the generator parses itself.
  const description = await (await fetch(`${baseUrl}/_service/openapi.json`)).text();
  writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(description)));
  writeFileSync(join(dir, 'calls.ts'), CALLS);

  const program = ts.createProgram([join(dir, 'calls.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(errors).toEqual([]);

  const { exercise } = (await import(pathToFileURL(join(dir, 'calls.ts')).href)) as {
    exercise: (...args: string[]) => Promise<Record<string, unknown>>;
  };
  const result = await exercise(baseUrl, h.org, h.consoleAppKey, ADMIN_EMAIL, ADMIN_PASSWORD);
  expect(result.faults).toEqual([]);
  expect(result.loggedIn).toMatchObject({ object: 'account', email: ADMIN_EMAIL });
  expect(result.listed).toHaveLength(1);
  expect(result.hasMore).toBe(false);
  expect(result.created).toMatch(/^[0-9a-f]{24}$/);
  expect(String(result.token).split('.')).toHaveLength(3);
  expect(result.me).toBe(ADMIN_EMAIL);
}, 60_000);
