import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import { readNdjsonLines } from '../objects/ndjson-lines.js';
import { parseManifest, type Manifest } from './manifest.js';
import { resourceNameOf, type ResourceDoc } from './resources.js';

/** Decompressed imports above this are refused (a gzip bomb must not fill memory). */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/**
 * Lines an import may hold (documents and blank lines). An org's configuration is a few hundred
 * documents; records travel in imports too, but this many apply in one transaction already takes
 * seconds. Larger loads go through `npm run admin -- import` (records/file-import.ts), which streams.
 */
export const MAX_IMPORT_LINES = 100_000;

/** Line faults listed in a refusal; the rest are counted in its reason. */
export const MAX_LISTED_FAULTS = 100;

const gunzipAsync = promisify(gunzip);

export interface ImportStream {
  resources: ResourceDoc[];
  manifest?: Manifest;
}

/**
 * gzip is recognised by its magic bytes, whatever the headers said. Decompressed on libuv's thread
 * pool (not on the event loop), at most MAX_IMPORT_BYTES of output.
 */
export async function decompress(body: Buffer): Promise<Buffer> {
  if (body.length < 2 || body[0] !== 0x1f || body[1] !== 0x8b) return body;
  try {
    return await gunzipAsync(body, { maxOutputLength: MAX_IMPORT_BYTES });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw fault('tooLarge', 'import', {
        reason: `The import decompresses to more than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB.`,
      });
    }
    throw fault('invalidArgument', 'import', {
      reason: `The gzip body does not decompress: ${(err as Error).message}`,
    });
  }
}

/** The settings document of exports made before it took the original's name, `env`. */
const LEGACY_SETTINGS = 'org.settings';

/** The first MAX_LISTED_FAULTS problems, and how many there were in all. */
class Problems {
  readonly listed: FaultBody[] = [];
  count = 0;
  add(path: string, reason: string): void {
    this.count++;
    if (this.listed.length < MAX_LISTED_FAULTS)
      this.listed.push(makeFault('invalidArgument', 'import', { path, reason }));
  }
  /** One fault in the spec's shape; its reason says how many were left out of `faults`. */
  throwIfAny(): void {
    if (this.count === 0) return;
    const first = this.listed[0]!.reason ?? '';
    const more = this.count - this.listed.length;
    const reason =
      more > 0
        ? `${first} (${this.count} problems; the first ${this.listed.length} are listed, ${more} more are not.)`
        : first;
    throw fault('invalidArgument', 'import', { faults: this.listed, reason });
  }
}

/** What the documents read so far say. */
interface Reading {
  resources: ResourceDoc[];
  manifest?: Manifest;
  exportsList?: unknown;
  dependencies: boolean;
  seen: Set<string>;
}

/**
 * Trust boundary: reads an import stream (an admin's upload, a CLI file, a deployment's body), in
 * either of the two shapes clients send:
 * - **an export as streamed** (this service's, the console's, a deployment's): the resources, then
 *   `manifest`, `manifest-dependencies` and `manifest-exports` listing exactly the resources it
 *   holds, so a file cut anywhere before its end is refused as a whole rather than half imported
 *   (cut right after `manifest`, it still holds every resource);
 * - **a folder of files** (mdctl's `env import`, docs/configuration.md): the `manifest` and one
 *   document per file, without `resource` (mdctl's file tree drops it when writing) and without
 *   `manifest-dependencies` or `manifest-exports` (mdctl keeps them in `dependencies.json` and
 *   `exports.json`, which its import does not send). Each document is named from its own fields
 *   (`resourceNameOf`).
 * Bounded: at most MAX_IMPORT_BYTES decompressed and MAX_IMPORT_LINES lines (`tooLarge`), strict
 * UTF-8 per line, MAX_LISTED_FAULTS problems listed (the rest counted); lines are read a batch
 * per turn of the event loop, so a body of bad lines never holds up other orgs' requests.
 */
export async function readImportStream(body: Buffer): Promise<ImportStream> {
  const bytes = await decompress(body);
  const problems = new Problems();
  const reading: Reading = { resources: [], dependencies: false, seen: new Set() };
  for await (const line of readNdjsonLines([bytes])) {
    if (line.number > MAX_IMPORT_LINES) {
      throw fault('tooLarge', 'import', {
        reason: `An import holds at most ${MAX_IMPORT_LINES} lines; split it, or load records with the admin CLI.`,
      });
    }
    const at = `line ${line.number}`;
    if (line.text === undefined) problems.add(at, `${at} ${line.problem ?? 'cannot be read'}.`);
    else if (line.text.trim() !== '') readDocument(reading, line.text, at, problems);
  }
  checkExportsList(reading, problems);
  problems.throwIfAny();
  return { resources: reading.resources, ...(reading.manifest ? { manifest: reading.manifest } : {}) };
}

function readDocument(reading: Reading, text: string, at: string, problems: Problems): void {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return problems.add(at, `${at} is not JSON.`);
  }
  if (
    typeof doc !== 'object' ||
    doc === null ||
    Array.isArray(doc) ||
    typeof (doc as ResourceDoc).object !== 'string'
  ) {
    return problems.add(at, `${at} is not a document with an object.`);
  }
  const d = upgraded(doc as Record<string, unknown>);
  const resource = typeof d.resource === 'string' && d.resource !== '' ? d.resource : resourceNameOf(d);
  if (d.object === 'manifest') reading.manifest = parseManifest(d);
  else if (d.object === 'manifest-dependencies') reading.dependencies = true;
  else if (d.object === 'manifest-exports') reading.exportsList = d.resources;
  else if (resource === undefined) problems.add(at, `${at} has no resource name.`);
  else if (reading.seen.has(resource)) problems.add(resource, `${resource} appears twice.`);
  else {
    reading.seen.add(resource);
    reading.resources.push({ ...d, object: String(d.object), resource });
  }
}

function checkExportsList({ exportsList, dependencies, manifest, seen }: Reading, problems: Problems): void {
  if (exportsList === undefined) {
    if (dependencies || manifest === undefined) {
      problems.add('manifest-exports', 'The stream has no manifest-exports document: the export is incomplete.');
    }
  } else if (
    !Array.isArray(exportsList) ||
    exportsList.length !== seen.size ||
    !exportsList.every((r) => seen.has(String(r) === LEGACY_SETTINGS ? 'env' : String(r)))
  ) {
    problems.add('manifest-exports', 'manifest-exports does not list exactly the resources in the stream.');
  }
}

/** An older export's settings document (`org` / `org.settings`) under its current name. */
function upgraded(doc: Record<string, unknown>): Record<string, unknown> {
  return doc.object === 'org' && doc.resource === LEGACY_SETTINGS ? { ...doc, object: 'env', resource: 'env' } : doc;
}
