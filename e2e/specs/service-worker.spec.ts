import { expect, test } from '@playwright/test';
import { Worker } from 'node:worker_threads';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The desktop shell runs the service in a worker thread; this runs the same built worker in plain
// Node (Electron's own ABI build is not available here) and checks it serves the API and console.
test('the service runs in a worker thread and answers on loopback', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'e2e-worker-'));
  const worker = new Worker(join(process.cwd(), 'dist/main/service-worker.js'), {
    workerData: { dataDir, port: 0, masterKey: randomBytes(32), consoleDir: join(process.cwd(), 'dist/renderer') },
  });
  try {
    const message = await new Promise<{ type: string; port?: number; message?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    expect(message.type).toBe('ready');
    const info = await (await fetch(`http://127.0.0.1:${message.port}/_service/info`)).json();
    expect(info).toMatchObject({ object: 'result', data: { setupRequired: true } });
    const page = await fetch(`http://127.0.0.1:${message.port}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  } finally {
    await worker.terminate();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
