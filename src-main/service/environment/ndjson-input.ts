import { gunzipSync } from 'node:zlib';
import { fault, makeFault, type FaultBody } from '../../../src-shared/faults.js';
import { parseManifest, type Manifest } from './manifest.js';
import type { ResourceDoc } from './resources.js';

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

/**
 * Reads an export stream. It must end with `manifest-exports` listing exactly the resources it
 * holds: a truncated file is refused as a whole rather than half imported.
 */
export function readImportStream(body: Buffer): ImportStream {
  const text = decompress(body).toString('utf8');
  const resources: ResourceDoc[] = [];
  const faults: FaultBody[] = [];
  let manifest: Manifest | undefined;
  let exportsList: unknown;
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
    const d = doc as ResourceDoc;
    if (d.object === 'manifest') manifest = parseManifest(d);
    else if (d.object === 'manifest-dependencies') return;
    else if (d.object === 'manifest-exports') exportsList = d.resources;
    else if (typeof d.resource !== 'string' || d.resource === '') {
      faults.push(makeFault('invalidArgument', 'import', { path: at, reason: `${at} has no resource name.` }));
    } else if (seen.has(d.resource)) {
      faults.push(makeFault('invalidArgument', 'import', { path: d.resource, reason: `${d.resource} appears twice.` }));
    } else {
      seen.add(d.resource);
      resources.push(d);
    }
  });
  if (exportsList === undefined) {
    faults.push(
      makeFault('invalidArgument', 'import', {
        path: 'manifest-exports',
        reason: 'The stream has no manifest-exports document: the export is incomplete.',
      }),
    );
  } else if (
    !Array.isArray(exportsList) ||
    exportsList.length !== seen.size ||
    !exportsList.every((r) => seen.has(String(r)))
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
