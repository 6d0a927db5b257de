/** require('http') in scripts: off by default, then only the listed hosts (loopback in these tests). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultError } from '../../../src-shared/faults.js';
import { DEFAULT_ORG_SETTINGS, type Org } from '../orgs/orgs.js';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { httpTarget } from './host-http.js';

const org = (settings: Partial<Org['settings']>): Org => ({
  id: 1,
  code: 'o',
  name: 'o',
  created: '',
  settings: { ...DEFAULT_ORG_SETTINGS, ...settings },
});
const faultOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as FaultError).fault;
  }
  return undefined;
};

describe('httpTarget', () => {
  it('is off unless the org turns it on', () => {
    expect(faultOf(() => httpTarget(org({ scriptHttpHosts: ['127.0.0.1'] }), 'http://127.0.0.1/'))).toMatchObject({
      errCode: 'service.notImplemented.module',
      path: 'http',
    });
  });

  it('refuses a malformed url and hosts, ports and schemes not listed', () => {
    const on = org({ scriptHttpEnabled: true, scriptHttpHosts: ['127.0.0.1:8080', 'api.example.test'] });
    expect(faultOf(() => httpTarget(on, 'https://'))).toMatchObject({ reason: 'Invalid url format.' });
    expect(faultOf(() => httpTarget(on, 'ftp://api.example.test/'))).toMatchObject({ reason: 'Invalid url format.' });
    expect(faultOf(() => httpTarget(on, 'http://u:p@api.example.test/'))).toMatchObject({
      reason: 'Invalid url format.',
    });
    expect(faultOf(() => httpTarget(on, 'http://127.0.0.1:21/'))?.reason).toMatch(/^access to host is prohibited/);
    expect(faultOf(() => httpTarget(on, 'http://127.0.0.2:8080/'))?.errCode).toBe('service.accessDenied.http');
    expect(faultOf(() => httpTarget(on, 'http://api.example.test.evil.test/'))?.errCode).toBe(
      'service.accessDenied.http',
    );
    expect(httpTarget(on, 'http://127.0.0.1:8080/x').pathname).toBe('/x');
    expect(httpTarget(on, 'https://API.example.test/').hostname).toBe('api.example.test');
  });
});

describe("require('http') end to end (loopback)", () => {
  let h: Harness;
  let admin: TestClient;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`${req.method} ${req.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    h = await createHarness();
    admin = new TestClient(h);
    await admin.login();
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const run = (script: string) => admin.post('/sys/script_runner', { script });

  it('is refused by default, then calls a listed loopback host', async () => {
    const script = `return require('http').get('http://127.0.0.1:${port}/hello?x=1')`;
    expect((await run(script)).json()).toMatchObject({ errCode: 'service.notImplemented.module', path: 'http' });
    const demo = h.svc.orgs.byCode('demo')!;
    h.svc.orgs.updateSettings(demo, { scriptHttpEnabled: true, scriptHttpHosts: [`127.0.0.1:${port}`] });
    const ok = (await run(script)).json();
    expect(ok).toMatchObject({ statusCode: 200, body: 'GET /hello?x=1' });
    const other = (await run(`return require('http').get('http://127.0.0.1:${port + 1}/')`)).json();
    expect(other).toMatchObject({ errCode: 'service.accessDenied.http' });
  });
});
