import { gunzipSync } from 'node:zlib';
import { fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import { parseManifest, type Manifest } from './manifest.js';
import { resourceNameOf, type ResourceDoc } from './resources.js';

/** Decompressed imports above this are refused (a gzip bomb must not fill memory). */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

export interface ImportStream {
  resources: ResourceDoc[];
  manifest?: Manifest;
}

/** gzip is recognised by its magic bytes, whatever the headers said. */
export function decompress(body: Buffer): Buffer {
  if (body.length < 2 || body[0] !== 0x1f || body[1] !== 0x8b) return body;
  try {
    return gunzipSync(body, { maxOutputLength: MAX_IMPORT_BYTES });
  } catch (err) {
    throw fault('invalidArgument', 'import', {
      reason: `The gzip body does not decompress: ${(err as Error).message}`,
    });
  }
}

/** The settings document of exports made before it took the original's name, `env`. */
const LEGACY_SETTINGS = 'org.settings';

/**
 * Reads an import stream, in either of the two shapes clients send:
 * - **an export as streamed** (this service's, the console's, a deployment's): the resources, then
 *   `manifest`, `manifest-dependencies` and `manifest-exports` listing exactly the resources it
 *   holds, so a file cut anywhere before its end is refused as a whole rather than half imported
 *   (cut right after `manifest`, it still holds every resource);
 * - **a folder of files** (mdctl's `env import`, original-clients.md §E): the `manifest` and one
 *   document per file, without `resource` (mdctl's file tree drops it when writing) and without
 *   `manifest-dependencies` or `manifest-exports` (mdctl keeps them in `dependencies.json` and
 *   `exports.json`, which its import does not send). Each document is named from its own fields
 *   (`resourceNameOf`).
 */
export function readImportStream(body: Buffer): ImportStream {
  const text = decompress(body).toString('utf8');
  const resources: ResourceDoc[] = [];
  const faults: FaultBody[] = [];
  let manifest: Manifest | undefined;
  let exportsList: unknown;
  let dependencies = false;
  const seen = new Set<string>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const at = `line ${i + 1}`;
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch {
      faults.push(makeFault('invalidArgument', 'import', { path: at, reason: `${at} is not JSON.` }));
      return;
    }
    if (
      typeof doc !== 'object' ||
      doc === null ||
      Array.isArray(doc) ||
      typeof (doc as ResourceDoc).object !== 'string'
    ) {
      faults.push(
        makeFault('invalidArgument', 'import', { path: at, reason: `${at} is not a document with an object.` }),
      );
      return;
    }
    const d = upgraded(doc as Record<string, unknown>);
    const resource = typeof d.resource === 'string' && d.resource !== '' ? d.resource : resourceNameOf(d);
    if (d.object === 'manifest') manifest = parseManifest(d);
    else if (d.object === 'manifest-dependencies') dependencies = true;
    else if (d.object === 'manifest-exports') exportsList = d.resources;
    else if (resource === undefined) {
      faults.push(makeFault('invalidArgument', 'import', { path: at, reason: `${at} has no resource name.` }));
    } else if (seen.has(resource)) {
      faults.push(makeFault('invalidArgument', 'import', { path: resource, reason: `${resource} appears twice.` }));
    } else {
      seen.add(resource);
      resources.push({ ...d, object: String(d.object), resource });
    }
  });
  if (exportsList === undefined) {
    if (dependencies || manifest === undefined) {
      faults.push(
        makeFault('invalidArgument', 'import', {
          path: 'manifest-exports',
          reason: 'The stream has no manifest-exports document: the export is incomplete.',
        }),
      );
    }
  } else if (
    !Array.isArray(exportsList) ||
    exportsList.length !== seen.size ||
    !exportsList.every((r) => seen.has(String(r) === LEGACY_SETTINGS ? 'env' : String(r)))
  ) {
    faults.push(
      makeFault('invalidArgument', 'import', {
        path: 'manifest-exports',
        reason: 'manifest-exports does not list exactly the resources in the stream.',
      }),
    );
  }
  if (faults.length > 0) throw fault('invalidArgument', 'import', { faults, reason: faults[0]!.reason });
  return { resources, ...(manifest ? { manifest } : {}) };
}

/** An older export's settings document (`org` / `org.settings`) under its current name. */
function upgraded(doc: Record<string, unknown>): Record<string, unknown> {
  return doc.object === 'org' && doc.resource === LEGACY_SETTINGS ? { ...doc, object: 'env', resource: 'env' } : doc;
}
