/**
 * Issue 41: an environment import runs the imported records' triggers only when asked
 * (`triggers`: mdctl's `env import --triggers` sends `?triggers=true`), through every way in — the
 * REST route, `developer.environment.import` in a script, and `admin env import --triggers`.
 * With it, before triggers change and refuse (a refusal writes nothing: all or nothing) and after
 * triggers run after the commit; without it, none run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../service/testing/harness.js';
import { importInto } from '../service/testing/environment-testing.js';
import { afterTriggersSettled } from '../service/triggers/engine.js';
import { runEnvCommand } from './admin-env.js';
import { openService } from '../service/open-service.js';
import { bootstrapOrg } from '../service/bootstrap.js';
import { readImportStream } from '../service/environment/ndjson-input.js';
import { importEnvironment } from '../service/environment/import.js';
import { administratorOf } from '../service/environment/actor.js';

let h: Harness;
let admin: TestClient;

const BEFORE = `if (String(script.arguments.new.c_title).includes('x')) {
  throw Fault.create('service.invalidArgument.title', { reason: 'Titles have no x.' })
}
script.arguments.new.update('c_status', 'open')`;
const AFTER = `org.objects.c_conversations.updateOne({ _id: script.arguments.new._id }, { $set: { c_title: script.arguments.new.c_title + ' (after)' } }).execute()`;

beforeAll(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  const triggers = [
    { name: 'c_imp_before', type: 'trigger', script: BEFORE, event: 'create.before' },
    { name: 'c_imp_after', type: 'trigger', script: AFTER, event: 'create.after' },
  ];
  for (const { event, ...t } of triggers) {
    const res = await admin.post('/scripts', {
      label: t.name,
      active: true,
      ...t,
      configuration: { object: 'c_conversation', event },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}, 60_000);
afterAll(async () => h.close());

let counter = 0;
/** An import stream of one new `c_conversation` record (mdctl's folder shape: a manifest, no exports list). */
function recordStream(title: string): { id: string; docs: Record<string, unknown>[] } {
  const id = (0x5f0000000000000000000000n + BigInt(++counter)).toString(16).padStart(24, '0');
  const docs = [
    { object: 'c_conversation', resource: `c_conversation.${id}`, _id: id, c_title: title },
    { object: 'manifest', c_conversation: { includes: [id] } },
  ];
  return { id, docs };
}

const ndjson = (docs: unknown[]) => docs.map((d) => JSON.stringify(d)).join('\n') + '\n';

type Way = (docs: Record<string, unknown>[], triggers: boolean) => Promise<{ ok: boolean; text: string }>;

const WAYS: Record<string, Way> = {
  rest: async (docs, triggers) => {
    // mdctl always sends the flag: triggers=false unless `--triggers`.
    const res = await importInto(admin, ndjson(docs), `?triggers=${triggers}`);
    return { ok: res.statusCode === 200, text: res.body };
  },
  script: async (docs, triggers) => {
    const res = await admin.post('/sys/script_runner', {
      script: `return require('developer').environment.import(script.arguments.docs, ${triggers ? '{ triggers: true }' : '{}'}).toArray()`,
      language: 'javascript',
      specification: 'es6',
      arguments: { docs },
    });
    return { ok: res.statusCode === 200, text: res.body };
  },
  cli: async (docs, triggers) => {
    const file = join(dirname(h.svc.db.name), `import-${++counter}.ndjson`);
    writeFileSync(file, ndjson(docs));
    const org = h.svc.orgs.list()[0]!;
    try {
      const args = ['import', '--in', file, ...(triggers ? ['--triggers'] : [])];
      return { ok: true, text: JSON.stringify(await runEnvCommand(h.svc, org, args, () => undefined)) };
    } catch (e) {
      return { ok: false, text: String((e as Error).message) };
    }
  },
};

const record = async (id: string) => {
  const res = await admin.get(`/c_conversations/${id}`);
  return res.statusCode === 200 ? (res.json() as Record<string, unknown>) : undefined;
};

describe.each(Object.keys(WAYS))('environment import through %s', (way) => {
  const importVia = WAYS[way]!;

  it('runs no trigger without the option', async () => {
    const { id, docs } = recordStream('xylophone');
    const out = await importVia(docs, false);
    expect(out.ok, out.text).toBe(true);
    await afterTriggersSettled(h.svc);
    const stored = await record(id);
    expect(stored).toMatchObject({ c_title: 'xylophone' });
    expect(stored?.c_status).toBeUndefined();
  });

  it('with the option, before triggers change the record and after triggers run after the commit', async () => {
    const { id, docs } = recordStream('fine');
    const out = await importVia(docs, true);
    expect(out.ok, out.text).toBe(true);
    await afterTriggersSettled(h.svc);
    expect(await record(id)).toMatchObject({ c_title: 'fine (after)', c_status: 'open' });
  });

  it("with the option, a before trigger's refusal stops the whole import with its fault", async () => {
    const good = recordStream('good');
    const bad = recordStream('xenon');
    const docs = [good.docs[0]!, bad.docs[0]!, { object: 'manifest', c_conversation: { includes: [good.id, bad.id] } }];
    const out = await importVia(docs, true);
    expect(out.ok).toBe(false);
    expect(out.text).toContain('service.invalidArgument.title');
    expect(out.text).toContain('Titles have no x.');
    await afterTriggersSettled(h.svc);
    expect(await record(good.id)).toBeUndefined();
    expect(await record(bad.id)).toBeUndefined();
  });
});

describe('an import that asks for triggers where none can run', () => {
  it('is refused, never run without them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'import-triggers-'));
    const svc = openService({ dataDir, masterKey: randomBytes(32) });
    try {
      const { org } = await bootstrapOrg(svc, {
        code: 'bare',
        adminEmail: 'a@b.test',
        adminPassword: 'pw pw pw pw pw',
      });
      const { docs } = recordStream('fine');
      const stream = await readImportStream(Buffer.from(ndjson(docs)));
      const actorId = administratorOf(svc, org, undefined);
      await expect(importEnvironment(svc, org, stream, { actorId, triggers: true })).rejects.toMatchObject({
        fault: { errCode: 'service.unsupportedOperation.import.triggers' },
      });
      expect((await importEnvironment(svc, org, stream, { actorId })).changes).toHaveLength(1);
    } finally {
      svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
