/** Issue #13, items 13 and 16: case-only email collisions, traceable 500s, and repeated Host headers. */
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import { buildServer, listen } from '../server.js';
import { createUser } from '../testing/token-testing.js';
import { FaultError, makeFault } from '../../../src-shared/faults.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

describe('item 13: email changes and server errors', () => {
  it('answers 409 exists.email for an email that differs from another account’s only by case', async () => {
    await createUser(admin, 'bob@example.test');
    const aliceId = await createUser(admin, 'alice@example.test');
    const res = await admin.patch(`/accounts/${aliceId}`, { email: 'Bob@Example.TEST' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errCode: 'service.exists.email', path: 'email' });
    expect((await admin.get(`/accounts/${aliceId}`)).json()).toMatchObject({ email: 'alice@example.test' });
    // Changing one's own email in letter case only is not a collision.
    expect((await admin.patch(`/accounts/${aliceId}`, { email: 'Alice@example.test' })).statusCode).toBe(200);
  });

  it('logs every 500 with its cause under the request id the fault carries, and no secrets', async () => {
    const lines: string[] = [];
    const app = await buildServer(h.svc, { errorLog: (line) => lines.push(line) });
    app.get('/_boom', async () => {
      throw new Error('disk on fire');
    });
    const res = await app.inject({
      method: 'GET',
      url: '/_boom?token=hunter2',
      headers: { host: '127.0.0.1', authorization: 'Bearer secret-token', cookie: 'sid=secret-cookie' },
    });
    await app.close();
    expect(res.statusCode).toBe(500);
    const body = res.json() as { requestId?: string; code: string };
    expect(body).toMatchObject({ object: 'fault', code: 'kError' });
    expect(body.requestId).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(body)).not.toContain('disk on fire');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { requestId: string; path: string; err: { message: string } };
    expect(line).toMatchObject({
      level: 'error',
      requestId: body.requestId,
      path: '/_boom',
      err: { message: 'disk on fire' },
    });
    for (const secret of ['hunter2', 'secret-token', 'secret-cookie']) expect(lines[0]).not.toContain(secret);
  });

  it('logs a 5xx fault the service chose to answer as a warning, not as an unexpected error', async () => {
    const lines: string[] = [];
    const app = await buildServer(h.svc, { errorLog: (line) => lines.push(line) });
    app.get('/_later', async () => {
      throw new FaultError(makeFault('notImplemented', undefined, { reason: 'Not yet.' }));
    });
    const res = await app.inject({ method: 'GET', url: '/_later', headers: { host: '127.0.0.1' } });
    await app.close();
    expect(res.statusCode).toBe(501);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: 'fault answered', path: '/_later' });
  });
});

describe('item 16: two Host headers', () => {
  function rawHttp(port: number, text: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => (out += d.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        const m = /^HTTP\/1\.1 (\d{3})/.exec(out);
        if (!m) return reject(new Error(`no HTTP answer: ${out.slice(0, 200)}`));
        resolve({ status: Number(m[1]), body: out.slice(out.indexOf('\r\n\r\n') + 4) });
      });
      socket.end(text);
    });
  }

  it('refuses a request with two Host headers (over a real socket) with a 400 fault', async () => {
    const port = await listen(h.server, 0);
    for (const hosts of [
      ['127.0.0.1', 'evil.example'],
      ['127.0.0.1', '127.0.0.1'],
      ['localhost', 'LOCALHOST:80'],
    ]) {
      const res = await rawHttp(
        port,
        `GET /_service/info HTTP/1.1\r\nHost: ${hosts[0]}\r\nhOsT: ${hosts[1]}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status, hosts.join()).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ object: 'fault', errCode: 'service.invalidArgument.host' });
    }
    const one = await rawHttp(port, `GET /_service/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(one.status).not.toBe(400);
  });
});
