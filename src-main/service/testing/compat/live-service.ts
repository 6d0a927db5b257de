/**
 * A real listening service for clients that speak HTTP over a socket (the original's mdctl client),
 * on a temporary data dir and a free port. The one place the compatibility suite starts a service.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openService } from '../../open-service.js';
import { buildServer, listen } from '../../server.js';
import { bootstrapOrg } from '../../bootstrap.js';
import { ManualClock } from '../../clock.js';
import type { Service } from '../../service.js';

export const LIVE_ADMIN_EMAIL = 'admin@example.test';
export const LIVE_ADMIN_PASSWORD = 'correct horse battery';

export interface LiveService {
  svc: Service;
  /** Starts at the real time (clients sign with their own clock); tests may move it forward. */
  clock: ManualClock;
  port: number;
  org: string;
  /** `http://127.0.0.1:<port>`, what a client calls its endpoint. */
  endpoint: string;
  consoleAppKey: string;
  close(): Promise<void>;
}

export async function startLiveService(): Promise<LiveService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-compat-'));
  const clock = new ManualClock(Date.now());
  const svc = openService({ dataDir, clock, masterKey: randomBytes(32) });
  const { consoleAppKey } = await bootstrapOrg(svc, {
    code: 'demo',
    adminEmail: LIVE_ADMIN_EMAIL,
    adminPassword: LIVE_ADMIN_PASSWORD,
  });
  const app = await buildServer(svc);
  const port = await listen(app, 0);
  return {
    svc,
    clock,
    port,
    org: 'demo',
    endpoint: `http://127.0.0.1:${port}`,
    consoleAppKey,
    close: async () => {
      await app.close();
      svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
