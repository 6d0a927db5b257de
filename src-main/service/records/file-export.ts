import type { Writable } from 'node:stream';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { propertyPaths, type ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import { csvRow, valueAtPath } from '../../../src-shared/csv.js';
import { presentRecord } from '../objects/present.js';

export type ExportFormat = 'ndjson' | 'csv';

/** Exports run with the data dir's own rights (the CLI works on the files): admin level. */
const EXPORT_ACCESS_LEVEL = 8;

/** CSV columns: the chosen paths, else every top-level and nested scalar path of the schema. */
export function csvColumns(def: ObjectDef, paths: string[] | undefined): string[] {
  if (paths) return ['_id', ...paths.filter((p) => p !== '_id')];
  const all = propertyPaths(def).filter((p) => p.def.type !== 'List' && !p.def.hidden);
  const nestedParents = new Set(all.filter((p) => p.path.includes('.') && !p.inArray).map((p) => p.path.split('.')[0]));
  return all
    .filter((p) => !(p.def.type === 'Document' && !p.def.array && nestedParents.has(p.path)))
    .filter((p) => !p.path.includes('.') || !p.inArray)
    .map((p) => p.path);
}

/**
 * Writes every record a query matches (where, sort, skip, paths honoured; no page limit) as NDJSON
 * or CSV, streaming with backpressure so memory stays constant.
 */
export async function exportQuery(
  svc: Service,
  org: Org,
  def: ObjectDef,
  query: ListQuery,
  format: ExportFormat,
  out: Writable,
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  const total = svc.store.countMatching(org.id, def, query);
  const columns = format === 'csv' ? csvColumns(def, query.paths) : [];
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  };
  if (format === 'csv') await write(csvRow(columns));
  let done = 0;
  for (const record of svc.store.iterate(org.id, def, query)) {
    const obj = presentRecord(def, record, EXPORT_ACCESS_LEVEL);
    const shown = query.paths ? projectPaths(obj, query.paths) : obj;
    await write(format === 'csv' ? csvRow(columns.map((c) => valueAtPath(shown, c))) : JSON.stringify(shown) + '\n');
    done++;
    if (done % 10000 === 0) onProgress?.(done, total);
  }
  onProgress?.(done, total);
  return done;
}
