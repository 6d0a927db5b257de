import type { Writable } from 'node:stream';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { propertyPaths, type ObjectDef } from '../../../src-shared/schema/types.js';
import type { ListQuery } from '../../../src-shared/query/ast.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import { csvRow, valueAtPath } from '../../../src-shared/csv.js';
import { presentRecord } from '../objects/present.js';
import { ID_FIELD } from '../../../src-shared/query/ordering.js';
import { expandReferences } from '../../../src-shared/query/references/expand.js';
import type { ExpandRef } from '../../../src-shared/query/references/parse-selection.js';

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
  expand: readonly ExpandRef[] = [],
): Promise<number> {
  const total = svc.store.countMatching(org.id, def, query);
  const columns = format === 'csv' ? csvColumns(def, query.paths) : [];
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  };
  if (format === 'csv') await write(csvRow(columns));
  let done = 0;
  // Records go out in batches, so expanding references costs one query per object per batch.
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    expandReferences(batch, expand, (object, ids) => loadWhole(svc, org, object, ids));
    for (const shown of batch) {
      await write(format === 'csv' ? csvRow(columns.map((c) => valueAtPath(shown, c))) : JSON.stringify(shown) + '\n');
      done++;
      if (done % 10000 === 0) onProgress?.(done, total);
    }
    batch = [];
  };
  for (const record of svc.store.iterate(org.id, def, query)) {
    const obj = presentRecord(def, record, EXPORT_ACCESS_LEVEL);
    batch.push(query.paths ? projectPaths(obj, query.paths) : obj);
    if (batch.length === EXPORT_BATCH) await flush();
  }
  await flush();
  onProgress?.(done, total);
  return done;
}

const EXPORT_BATCH = 1000;

/** Referenced records as the export reads everything: whole, at admin level. */
function loadWhole(svc: Service, org: Org, object: string, ids: readonly string[]) {
  const out = new Map<string, Record<string, unknown>>();
  const def = svc.defs.byName(org.id, object);
  if (!def) return out;
  const query: ListQuery = {
    where: { kind: 'field', field: ID_FIELD, operation: { op: '$in', values: [...ids] } },
    sort: [],
    skip: 0,
    limit: ids.length,
  };
  for (const row of svc.store.list(org.id, def, query).rows)
    out.set(row._id, presentRecord(def, row, EXPORT_ACCESS_LEVEL));
  return out;
}
