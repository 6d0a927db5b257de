import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = (...args: string[]) => spawnSync(process.execPath, ['dist/main/cli.js', ...args], { encoding: 'utf8' });

test('seed, import and export work on a data dir from the command line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-cli-'));
  try {
    const seeded = cli(
      'seed',
      '--data-dir',
      dir,
      '--accounts',
      '500',
      '--seed',
      '5',
      '--admin-password',
      'a strong password',
    );
    expect(seeded.status).toBe(0);
    expect(JSON.parse(seeded.stdout.trim().split('\n').pop()!)).toMatchObject({ accounts: 500, cancelled: false });
    expect(seeded.stderr).toContain('seeding accounts 500/500 (100%)');

    const file = join(dir, 'in.ndjson');
    writeFileSync(file, ['{"c_title":"one"}', '{"c_title":7}', '{"c_title":"two","c_status":"open"}'].join('\n'));
    const imported = cli(
      'admin',
      'import',
      '--data-dir',
      dir,
      '--org',
      'demo',
      '--collection',
      'c_conversations',
      '--file',
      file,
    );
    expect(imported.status).toBe(3); // some lines were refused
    expect(imported.stderr).toContain('line 2: c_title: c_title must be a string.');
    expect(JSON.parse(imported.stdout.trim())).toEqual({ imported: 2, failed: 1 });

    const out = join(dir, 'out.csv');
    const where = JSON.stringify({ c_title: { $in: ['one', 'two'] } });
    const exported = cli(
      'admin',
      'export',
      '--data-dir',
      dir,
      '--org',
      'demo',
      '--collection',
      'c_conversations',
      '--where',
      where,
      '--sort',
      '{"c_title":1}',
      '--paths',
      'c_title,c_status',
      '--format',
      'csv',
      '--out',
      out,
    );
    expect(exported.status).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe('_id,c_title,c_status');
    expect(lines.slice(1).map((l) => l.split(',').slice(1).join(','))).toEqual(['one,', 'two,open']);

    const bad = cli(
      'admin',
      'export',
      '--data-dir',
      dir,
      '--org',
      'demo',
      '--collection',
      'accounts',
      '--where',
      '{"shared":true}',
    );
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('service.invalidArgument.query');
    const noOrg = cli('admin', 'export', '--data-dir', dir, '--org', 'nope', '--collection', 'accounts');
    expect(noOrg.status).toBe(2);
    expect(noOrg.stderr).toContain('no org "nope"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
