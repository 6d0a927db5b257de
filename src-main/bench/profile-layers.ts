/**
 * Where a token-authenticated request's time goes, per layer (issue #14 item 5). Reads a V8 CPU
 * profile (`node --cpu-prof`) of a bundle built with source maps, maps every sample's function back
 * to its source file, and sums self time per layer: routing (Fastify and the HTTP layer), auth,
 * access, compile (query parsing and SQL building), SQL (better-sqlite3 and the store), presentation.
 *
 *   node dist/main/bench/profile-layers.js PROFILE.cpuprofile
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SourceMap } from 'node:module';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Profile;
const maps = new Map<string, SourceMap | null>();
function sourceOf(frame: Node['callFrame']): string {
  if (!frame.url.startsWith('file://')) return frame.url || `(${frame.functionName || 'native'})`;
  let map = maps.get(frame.url);
  if (map === undefined) {
    try {
      const path = fileURLToPath(frame.url);
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(frame.url, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string } | undefined;
  return entry?.originalSource ?? frame.url;
}

const LAYERS: [string, RegExp][] = [
  ['garbage collection', /\(garbage collector\)/],
  ['SQL', /better-sqlite3|objects\/store|db\/|\(program\)|native/],
  ['auth', /http\/authenticate|auth\/|\bjose\b/],
  ['access', /access\//],
  ['compile', /query\/|src-shared\/query|scopes\//],
  ['presentation', /present|serial|fast-json-stringify|json/i],
  ['routing', /fastify|light-my-request|find-my-way|avvio|pino|http\/|routes\/|node:/],
];
const layerOf = (source: string, fn: string) =>
  LAYERS.find(([, re]) => re.test(source) || (re.source.includes('native') && fn === '(program)'))?.[0] ?? 'other';

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
/** Setup (seeding the data, creating the org and its apps) is not a request's work. */
const SETUP = /demo\/seeder|bootstrap|harness/;
function isSetup(id: number): boolean {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    if (SETUP.test(sourceOf(byId.get(at)!.callFrame))) return true;
  }
  return false;
}
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const layers = new Map<string, number>();
const sources = new Map<string, number>();
let total = 0;
for (const [id, us] of self) {
  const node = byId.get(id)!;
  if (node.callFrame.functionName === '(idle)' || isSetup(id)) continue;
  const source = sourceOf(node.callFrame);
  const layer = layerOf(source, node.callFrame.functionName);
  layers.set(layer, (layers.get(layer) ?? 0) + us);
  sources.set(
    `${layer} ${source.replace(/.*node_modules\//, '')}`,
    (sources.get(`${layer} ${source.replace(/.*node_modules\//, '')}`) ?? 0) + us,
  );
  total += us;
}
console.log('| layer | share of CPU time |\n|---|---|');
for (const [layer, us] of [...layers].sort((a, b) => b[1] - a[1]))
  console.log(`| ${layer} | ${((100 * us) / total).toFixed(1)} % |`);
console.log('\ntop sources:');
for (const [source, us] of [...sources].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${source}`);
