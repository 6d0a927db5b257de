/**
 * Issue 41: the command line's NDJSON loader (`admin import`) runs the loaded records' create
 * triggers only with `--triggers` (as `admin env import --triggers`, env-import-triggers.test.ts):
 * before triggers change a record or refuse it — a refused record is a failed line, with its
 * number and the trigger's reason, and the other lines still load — and after triggers run once
 * the batch committed, with the memo the record's before triggers left.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, listQuery, TestClient, type Harness } from '../service/testing/harness.js';
import { afterTriggersSettled } from '../service/triggers/engine.js';
import { runImportCommand } from './admin-import.js';

let h: Harness;
let admin: TestClient;

const BEFORE = `if (String(script.arguments.new.c_title).includes('x')) {
  throw Fault.create('service.invalidArgument.title', { reason: 'Titles have no x.' })
}
script.arguments.new.update('c_status', 'open')
script.arguments.memo.loaded = script.arguments.new.c_title`;
const AFTER = `org.objects.c_conversations.updateOne({ _id: script.arguments.new._id }, { $set: { c_title: script.arguments.memo.loaded + ' (after)' } }).execute()`;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  for (const [name, script, event] of [
    ['c_load_before', BEFORE, 'create.before'],
    ['c_load_after', AFTER, 'create.after'],
  ] as const) {
    const res = await admin.post('/scripts', {
      label: name,
      name,
      type: 'trigger',
      active: true,
      script,
      // The command line writes as no account: the after trigger's update runs as a principal.
      configuration: {
        object: 'c_conversation',
        event,
        ...(event.endsWith('after') ? { principal: ADMIN_EMAIL } : {}),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 60_000);
afterAll(async () => h.close());

let counter = 0;
/** Loads `titles` (one record a line, in a `c_tag` of its own) through the command. */
async function load(titles: string[], triggers: boolean) {
  const tag = `load-${++counter}`;
  const file = join(dirname(h.svc.db.name), `${tag}.ndjson`);
  writeFileSync(file, titles.map((c_title) => JSON.stringify({ c_title: `${c_title} ${tag}` })).join('\n') + '\n');
  const org = h.svc.orgs.list()[0]!;
  const args = ['--collection', 'c_conversations', '--file', file, ...(triggers ? ['--triggers'] : [])];
  const report = await runImportCommand(h.svc, org, args);
  await afterTriggersSettled(h.svc);
  const res = await admin.get(`/c_conversations?${listQuery({ sort: { _id: 1 }, limit: 100 })}`);
  const records = (res.json().data as Record<string, unknown>[]).filter((r) => String(r.c_title).includes(tag));
  return { report, records, tag };
}

describe('admin import (the NDJSON loader) and triggers', () => {
  it('runs no trigger without --triggers', async () => {
    const { report, records, tag } = await load(['fine', 'xylophone'], false);
    expect(report).toMatchObject({ imported: 2, failed: 0 });
    expect(records.map((r) => [r.c_title, r.c_status])).toEqual([
      [`fine ${tag}`, undefined],
      [`xylophone ${tag}`, undefined],
    ]);
  });

  it('with --triggers: before triggers change and refuse lines, after triggers run after the commit', async () => {
    const { report, records, tag } = await load(['first', 'xylophone', 'third'], true);
    expect(report).toMatchObject({
      imported: 2,
      failed: 1,
      errors: [{ line: 2, reason: expect.stringContaining('Titles have no x.') as unknown }],
    });
    // The memo carried each record's title from its before trigger to its after trigger.
    expect(records.map((r) => [r.c_title, r.c_status])).toEqual([
      [`first ${tag} (after)`, 'open'],
      [`third ${tag} (after)`, 'open'],
    ]);
  });
});
