import { connect } from 'node:net';
import inject from 'light-my-request';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listen } from './server.js';
import { createHarness, injectAsClient, TestClient, type Harness } from './testing/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

describe('every answer is a success or a fault of the spec shape', () => {
  it('answers an unknown route with a kNotFound fault, not an HTML page', async () => {
    const res = await new TestClient(h).get('/_service/no/such/route/here');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({
      object: 'fault',
      code: 'kNotFound',
      errCode: 'service.notFound.route',
      status: 404,
    });
  });

  it('answers malformed JSON with kInvalidArgument', async () => {
    const res = await h.server.inject({
      method: 'POST',
      url: '/demo/v2/accounts/login',
      headers: { host: 'localhost', 'content-type': 'application/json', 'service-client-key': h.consoleAppKey },
      payload: '{"email": "a@b.c", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      object: 'fault',
      code: 'kInvalidArgument',
      errCode: 'service.invalidArgument.json',
    });
  });

  it('answers an unexpected exception with kError and no stack trace', async () => {
    h.server.get('/_service/boom', async () => {
      throw new Error('secret internal detail at /home/x/file.ts:12');
    });
    const res = await new TestClient(h).get('/_service/boom');
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toMatchObject({ object: 'fault', code: 'kError', errCode: 'service.error', status: 500 });
    expect(res.body).not.toContain('secret internal detail');
    expect(res.body).not.toContain('file.ts');
  });

  it('refuses a body over the limit with kRequestTooLarge', async () => {
    const res = await new TestClient(h).post('/accounts/login', { email: 'x'.repeat(2 * 1024 * 1024), password: 'y' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'kRequestTooLarge' });
  });

  it('refuses prototype-pollution keys in bodies', async () => {
    const res = await h.server.inject({
      method: 'POST',
      url: '/demo/v2/accounts/login',
      headers: { host: 'localhost', 'content-type': 'application/json', 'service-client-key': h.consoleAppKey },
      payload: '{"email":"a@b.c","password":"x","__proto__":{"admin":true}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ object: 'fault', code: 'kInvalidArgument' });
  });

  it('answers an unknown org with a fault', async () => {
    const res = await h.server.inject({ method: 'GET', url: '/nope/v2/accounts', headers: { host: '127.0.0.1' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errCode: 'service.notFound.org' });
  });
});

describe('headers and host check', () => {
  it('sends Service-Server-Time from the service clock on every response, faults included', async () => {
    const ok = await new TestClient(h).get('/_service/health');
    const bad = await new TestClient(h).get('/nowhere');
    expect(ok.headers['service-server-time']).toBe(String(h.clock.now()));
    expect(bad.headers['service-server-time']).toBe(String(h.clock.now()));
  });

  // Router errors are answered before any hook runs, so before the request guard stamps headers.
  it.each([
    ['bad percent-encoding', '/demo/v2/accounts/%E0%A4%A', 400, 'service.invalidArgument.url'],
    ['a 70 kB path segment', `/demo/v2/accounts/${'a'.repeat(70_000)}`, 413, 'service.tooLarge.url'],
    ['an over-long collection name', `/demo/v2/${'c'.repeat(300)}`, 413, 'service.tooLarge.url'],
  ])('stamps the router’s fault for %s like every other answer', async (_label, url, status, errCode) => {
    const res = await injectAsClient(h.server, { method: 'GET', url, headers: { host: '127.0.0.1:7788' } });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ object: 'fault', status, errCode });
    expect(res.headers['service-server-time']).toBe(String(h.clock.now()));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('stamps the 503 of a closing server', async () => {
    const own = await createHarness();
    try {
      await own.server.ready();
      await own.server.close();
      // Straight to the dispatch: `injectAsClient` would wait for a server that has closed.
      const res = await inject(own.server.dispatch, {
        method: 'GET',
        url: '/_service/health',
        headers: { host: '::1' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['service-server-time']).toBe(String(own.clock.now()));
    } finally {
      await own.close();
    }
  });

  it.each(['1.1', '1.0'])('refuses an HTTP/%s request without Host with a fault, over a real socket', async (v) => {
    const port = await listen(h.server, 0);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => (out += d.toString('latin1')));
      socket.on('error', () => undefined); // the server may reset after answering
      socket.on('close', () => resolve(out));
      socket.end(`GET /_service/health HTTP/${v}\r\nConnection: close\r\n\r\n`);
    });
    const split = answer.indexOf('\r\n\r\n');
    const head = answer.slice(0, split);
    expect(head).toMatch(/^HTTP\/1\.1 403 /);
    expect(head).toMatch(new RegExp(`\r\nService-Server-Time: ${h.clock.now()}\r\n`, 'i'));
    expect(JSON.parse(answer.slice(split + 4))).toMatchObject({
      object: 'fault',
      status: 403,
      errCode: 'service.accessDenied.host',
    });
  });

  it.each(['evil.example.com', 'evil.example.com:7788', '127.0.0.1.nip.io', 'localhost.evil.test'])(
    'refuses Host %j (DNS rebinding)',
    async (host) => {
      const res = await h.server.inject({ method: 'GET', url: '/_service/info', headers: { host } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ object: 'fault', errCode: 'service.accessDenied.host' });
    },
  );

  it.each(['127.0.0.1:7788', 'localhost', 'LOCALHOST:1', '[::1]:7788'])('accepts loopback Host %j', async (host) => {
    const res = await h.server.inject({ method: 'GET', url: '/_service/health', headers: { host } });
    expect(res.statusCode).toBe(200);
  });
});

describe('first-run setup', () => {
  it('is offered while no org exists, creates org, admin and console app, then closes', async () => {
    const fresh = await createHarness({ bootstrap: false });
    try {
      const c = new TestClient(fresh, '');
      expect((await c.get('/_service/info')).json().data).toMatchObject({ setupRequired: true, orgs: [] });
      const bad = await c.post('/_service/setup', { org: 'Bad Org!', email: 'a@b.test', password: 'longenough' });
      expect(bad.json()).toMatchObject({ object: 'fault', errCode: 'service.invalidArgument.org' });
      const res = await c.post('/_service/setup', { org: 'acme', email: 'boss@acme.test', password: 'longenough' });
      expect(res.statusCode).toBe(200);
      const key = res.json().data.consoleAppKey as string;
      expect(key).toMatch(/^[A-Za-z0-9]{22}$/);
      const info = (await c.get('/_service/info')).json().data;
      expect(info).toMatchObject({ setupRequired: false, orgs: [{ code: 'acme', consoleAppKey: key }] });
      const again = await c.post('/_service/setup', { org: 'other', email: 'x@y.test', password: 'longenough' });
      expect(again.statusCode).toBe(403);
      expect(again.json()).toMatchObject({ errCode: 'service.accessDenied.setupDone' });
    } finally {
      await fresh.close();
    }
  });
});

describe('first-run defaults', () => {
  it('offers the org the service was started for and names the administrator as given', async () => {
    const fresh = await createHarness({ bootstrap: false, defaultOrg: 'acme-labs' });
    try {
      const c = new TestClient(fresh, '');
      expect((await c.get('/_service/info')).json().data).toMatchObject({
        setupRequired: true,
        defaultOrg: 'acme-labs',
      });
      const res = await c.post('/_service/setup', {
        org: 'acme-labs',
        name: 'Acme Labs',
        email: 'boss@acme.test',
        password: 'longenough',
        adminName: { first: 'Ada', last: 'Lovelace' },
      });
      expect(res.statusCode).toBe(200);
      const org = fresh.svc.orgs.byCode('acme-labs')!;
      expect(org.name).toBe('Acme Labs');
      const headers = { host: '127.0.0.1:7788', 'service-client-key': res.json().data.consoleAppKey as string };
      const login = await fresh.server.inject({
        method: 'POST',
        url: '/acme-labs/v2/accounts/login',
        headers,
        payload: { email: 'boss@acme.test', password: 'longenough' },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json()).toMatchObject({ email: 'boss@acme.test', name: { first: 'Ada', last: 'Lovelace' } });
    } finally {
      await fresh.close();
    }
  });
});

describe('trailing slashes', () => {
  it('are dropped from API paths only', async () => {
    const { withoutApiTrailingSlash } = await import('./server.js');
    expect(withoutApiTrailingSlash('/demo/v2/accounts/me/')).toBe('/demo/v2/accounts/me');
    expect(withoutApiTrailingSlash('/demo/v2/accounts//?limit=1')).toBe('/demo/v2/accounts?limit=1');
    expect(withoutApiTrailingSlash('/console/')).toBe('/console/');
    expect(withoutApiTrailingSlash('/demo/v2/')).toBe('/demo/v2/');
    expect(withoutApiTrailingSlash('/demo/v2/accounts?where=/x/')).toBe('/demo/v2/accounts?where=/x/');
  });
});

describe('request bodies are validated, not coerced', () => {
  it('refuses an array or a number where the schema declares a string', async () => {
    const c = new TestClient(h);
    for (const body of [
      { email: ['admin@example.test'], password: 'correct horse battery' },
      { email: 'admin@example.test', password: 12345678 },
    ]) {
      const res = await c.post('/accounts/login', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ object: 'fault', code: 'kValidationError' });
    }
  });
});
