/**
 * A URL deployment target is whatever listens at the address an org administrator stored (issue 38
 * Low 4): its answer is never relayed as text, a fault without a status is no 500, and "nothing
 * listens" and "something else listens" answer the same fault, so deployments cannot map which
 * ports listen. The rogue target here is a plain HTTP server on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';

let h: Harness;
let admin: TestClient;
let rogue: Server;
let rogueBase: string;
/** What the rogue target answers: status, content type and body. */
let answer: { status: number; type: string; body: string };

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  rogue = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body));
  });
  await new Promise<void>((resolve) => rogue.listen(0, '127.0.0.1', resolve));
  rogueBase = `http://127.0.0.1:${(rogue.address() as AddressInfo).port}`;
}, 60_000);
afterEach(async () => {
  await new Promise((resolve) => rogue.close(resolve));
  await h.close();
});

async function runAgainst(targetUrl: string, name = 'to_rogue') {
  const saved = await admin.post('/deployments', {
    name,
    targetKind: 'url',
    targetUrl,
    targetOrg: 'prod',
    targetAppKey: 'abcdefghijklmnopqrstuv',
    targetSecret: 'x'.repeat(64),
    manifest: JSON.stringify({ roles: { includes: ['*'] } }),
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return admin.post(`/deployments/${name}/run`, { dryRun: true });
}

describe('a URL target that is not this service', () => {
  it('answers a fault of its own when the target answers a fault without status, relaying none of its text', async () => {
    answer = {
      status: 418,
      type: 'application/x-ndjson',
      body: '{"object":"fault","errCode":"service.accessDenied.nope","reason":"ROGUE-TEXT <script>","path":"ROGUE-PATH"}\n',
    };
    const res = await runAgainst(rogueBase);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({
      errCode: 'service.accessDenied.deploymentTarget',
      path: 'targetUrl',
      reason: `The target service at ${rogueBase} refused the import (service.accessDenied.nope).`,
    });
    expect(res.body).not.toContain('ROGUE');
    expect(res.body).not.toContain('FST_ERR');
  });

  it('does not relay an errCode that is not one', async () => {
    answer = {
      status: 200,
      type: 'application/x-ndjson',
      body: '{"object":"fault","errCode":"ROGUE <b>text</b>","status":"x"}\n',
    };
    const res = await runAgainst(rogueBase);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({
      errCode: 'service.error.deploymentTarget',
      reason: `The target service at ${rogueBase} refused the import.`,
    });
    expect(res.body).not.toContain('ROGUE');
  });

  it('answers one fault whether nothing listens, something else listens, or the import is not reported complete', async () => {
    const faults: unknown[] = [];
    const strip = (body: Record<string, unknown>, base: string) => ({
      ...body,
      reason: String(body.reason).replace(base, '<target>'),
      requestId: undefined,
    });
    for (const [i, body] of ['<html>It works!</html>', '{"type":"status","stage":"started"}\n', ''].entries()) {
      answer = { status: 200, type: 'text/html', body };
      faults.push(strip((await runAgainst(rogueBase, `rogue_${i}`)).json(), rogueBase));
    }
    await new Promise((resolve) => rogue.close(resolve));
    faults.push(strip((await runAgainst(rogueBase, 'closed')).json(), rogueBase));
    rogue.listen(0, '127.0.0.1'); // for afterEach's close
    expect(faults[0]).toMatchObject({ errCode: 'service.error.deploymentTarget', path: 'targetUrl' });
    for (const f of faults) expect(f).toEqual(faults[0]);
    expect(JSON.stringify(faults)).not.toContain('It works');
  });
});
