/** 5xx answers are traceable: the cause is logged under the request id the fault carries, without secrets. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness.js';
import { buildServer } from '../server.js';
import { FaultError, makeFault } from '../../../src-shared/faults.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

describe('server errors', () => {
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
