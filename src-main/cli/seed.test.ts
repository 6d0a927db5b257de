/** The admin CLI's `seed`: creates the org when missing, seeds, and reports counts and timings. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openService } from '../service/open-service.js';
import { seedCommand } from './seed.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('seed command', () => {
  it('creates the org, seeds it, and prints the counts, the time and each phase of it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'seed-cli-'));
    dirs.push(dataDir);
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);

    await seedCommand([
      '--data-dir',
      dataDir,
      '--org',
      'demo',
      '--accounts',
      '40',
      '--admin-password',
      'seed-Password-1!',
    ]);

    const report = JSON.parse(printed.at(-1)!) as Record<string, unknown>;
    expect(report).toMatchObject({ accounts: 40, conversations: 4, patientfiles: 2, cancelled: false });
    for (const key of ['seconds', 'writing', 'indexing']) expect(typeof report[key]).toBe('number');
    expect(report.writing as number).toBeLessThanOrEqual(report.seconds as number);
    const svc = openService({ dataDir });
    try {
      const org = svc.orgs.byCode('demo')!;
      // The 40 seeded accounts and the administrator the command created.
      expect(svc.store.count(org.id, svc.defs.byName(org.id, 'account')!)).toBe(41);
    } finally {
      svc.close();
    }
  });
});
