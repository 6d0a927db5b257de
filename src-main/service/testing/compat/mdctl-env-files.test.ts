/**
 * `mdctl env export` to a folder, then `mdctl env import` of that folder (docs/configuration.md),
 * against this service. The original client's own `ExportStream` and `ExportSection` (installed
 * `@medable/mdctl-core`) decide which documents are kept and the file each one is written to; the
 * two file-tree adapters around them (`mdctl-export-adapter-tree`, `mdctl-import-adapter`, not
 * installed: they pull in native keychain modules) are followed step for step:
 * - export: each kept section is written to `<getPath()>/<name>.json` with `resource` removed;
 * - import: `manifest.json`, then the files its sections select (`env/env.json` for `env`,
 *   `env/<section>/**` for configuration, `data/<plural>/**` for a custom object), sent as NDJSON.
 * Scripts stay inline in their JSON: the adapters' moving of sources into `.js` files and back is
 * a round trip of the client's own.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Transform } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHarness, type Harness, type TestClient } from '../harness.js';
import { configureSample, exportOf, importInto, ndjsonLines, twoOrgClients } from '../environment-testing.js';

interface MdctlSection {
  key: string;
  name: string;
  content: Record<string, unknown>;
  isWritable: boolean;
  getPath(): string;
}
type MdctlExportStream = Transform & { complete(): boolean };

const load = createRequire(import.meta.url);
const ExportStream = load('@medable/mdctl-core/streams/export_stream.js') as new () => MdctlExportStream;
// Resolved from mdctl-core's own folder: the version the client itself pluralises folder names with.
const pluralize = createRequire(load.resolve('@medable/mdctl-core/package.json'))('pluralize') as (
  word: string,
) => string;

/** The manifest as an mdctl user writes it: the original's section names, `env` for the org's settings. */
const MANIFEST = {
  env: { includes: ['*'] },
  objects: { includes: ['*'] },
  roles: { includes: ['*'] },
  apps: { includes: ['*'] },
  views: { includes: ['*'] },
  scripts: { includes: ['*'] },
  policies: { includes: ['*'] },
  c_conversation: { includes: ['*'] },
};

/** An org configuration policy (docs/scripting.md#policies), on a path the round trip never asks for. */
const POLICY = { object: 'policy', name: 'c_gate', label: 'Gate', methods: ['get'], paths: ['/routes/c_gated'], action: 'Deny' }; // prettier-ignore

let h: Harness;
let a: TestClient;
let b: TestClient;
let dir: string;
beforeEach(async () => {
  h = await createHarness();
  ({ a, b } = await twoOrgClients(h));
  dir = mkdtempSync(join(tmpdir(), 'mdctl-env-'));
}, 60_000);
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h.close();
});

/** `mdctl env export`: the stream through the client's ExportStream, each section to its file. */
async function exportToFolder(ndjson: string): Promise<{ files: string[]; complete: boolean; dropped: string[] }> {
  const docs = ndjsonLines(ndjson);
  const stream = new ExportStream();
  const sections: MdctlSection[] = [];
  stream.on('data', (s: MdctlSection) => sections.push(s));
  for (const doc of docs) stream.write(doc);
  stream.end();
  await finished(stream);
  const kept = new Set(sections.map((s) => s.content));
  const files: string[] = [];
  for (const section of sections.filter((s) => s.isWritable)) {
    const file = join(dir, section.getPath(), `${section.name}.json`);
    files.push(relative(dir, file));
    const content = { ...section.content };
    delete content.resource;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(content, null, 2));
  }
  const dropped = docs.filter((d) => !kept.has(d)).map((d) => String(d.resource ?? d.object));
  return { files, complete: stream.complete(), dropped };
}

function filesUnder(folder: string, base?: string): string[] {
  const root = join(dir, folder);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(root, name);
    if (statSync(path).isDirectory()) return filesUnder(join(folder, name), base);
    const wanted = base === undefined || base === '*' || name === `${base}.json`;
    return name.endsWith('.json') && wanted ? [join(folder, name)] : [];
  });
}

/** `mdctl env import`: the manifest, then the files its sections select, one JSON document a line. */
function importFromFolder(): string {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  const picked = new Set<string>(['manifest.json']);
  for (const [key, value] of Object.entries(manifest)) {
    const includes = (value as { includes?: unknown } | null)?.includes;
    if (!Array.isArray(includes)) continue;
    for (const inc of includes as string[]) {
      const found =
        key === 'env'
          ? ['env/env.json']
          : /^c_/.test(key)
            ? filesUnder(`data/${pluralize(key)}`, inc)
            : filesUnder(`env/${key}`, inc);
      for (const f of found) picked.add(f);
    }
  }
  return [...picked].map((f) => JSON.stringify(JSON.parse(readFileSync(join(dir, f), 'utf8')))).join('\n');
}

it('a folder written by mdctl env export imports into another org with mdctl env import, equal to the source', async () => {
  await configureSample(h, a);
  const manifest = { object: 'manifest', policies: { includes: ['*'] } };
  expect((await importInto(a, `${JSON.stringify(manifest)}\n${JSON.stringify(POLICY)}`)).statusCode).toBe(200);
  const exported = await exportToFolder(await exportOf(a, MANIFEST));
  expect(exported.complete).toBe(true);
  expect(exported.dropped).toEqual([]);
  // one file per resource: two apps do not land in one file, the settings have theirs
  expect(new Set(exported.files).size).toBe(exported.files.length);
  expect(exported.files).toEqual(
    expect.arrayContaining([
      'env/env.json',
      'env/apps/Back end.json',
      'env/apps/Admin console.json',
      'env/roles/analyst.json',
      'env/views/open_convs.json',
      'env/scripts/c_hello.json',
      'env/objects/c_thing.json',
      'env/policies/c_gate.json',
      'manifest.json',
      'exports.json',
    ]),
  );
  expect(exported.files.some((f) => f.startsWith('data/c_conversations/'))).toBe(true);

  const body = importFromFolder();
  expect(body).not.toContain('"resource"');
  const res = await importInto(b, body, '', { accept: 'application/x-ndjson' });
  expect(res.statusCode, res.body).toBe(200);
  expect(ndjsonLines(res.body).at(-1)).toMatchObject({ type: 'status', stage: 'complete' });
  expect(ndjsonLines(await exportOf(b, MANIFEST))).toEqual(ndjsonLines(await exportOf(a, MANIFEST)));
  expect(h.svc.orgs.byCode('other')!.settings.lockAttempts).toBe(7);
  // The policy came along, and applies in the org it was imported into.
  expect((await b.get('/routes/c_gated')).json()).toMatchObject({ errCode: 'service.accessDenied.policy' });
});
