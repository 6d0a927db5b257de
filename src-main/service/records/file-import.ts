import type { Readable } from 'node:stream';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { levelKey } from '../objects/present.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { FaultError } from '../../../src-shared/faults.js';
import { normaliseDate, validateInput, type Json } from '../objects/validate.js';
import { OBJECT_ID_PATTERN } from '../objects/ids.js';
import { recordRules } from './rules.js';
import { loadRecord } from './load-write.js';
import { writeTransaction } from './write.js';
import { readNdjsonLines } from '../objects/ndjson-lines.js';
import { refreshStatistics } from '../db/statistics.js';

export interface ImportReport {
  imported: number;
  failed: number;
  /** The first problems, each with its 1-based line number. */
  errors: { line: number; reason: string }[];
}

const BATCH = 1000;
const MAX_REPORTED = 100;
/** Properties an export writes that are computed or managed, not imported as values. */
const COMPUTED = ['object', 'updater'];

/**
 * Trust boundary: loads NDJSON (one JSON object per line) into a collection (the CLI's `admin
 * import`). Each record is checked against the schema and the record rules of its type, and
 * written through the one write path (write.ts) whole or not at all (a savepoint per record inside
 * batched transactions); bad lines (not JSON, not valid UTF-8, too long) are reported by number
 * and the rest still load. `_id`, `created` and `updated` are kept when given and valid. Streams:
 * memory stays constant whatever the file size.
 */
export async function importNdjson(
  svc: Service,
  org: Org,
  def: ObjectDef,
  input: Readable,
  onProgress?: (lines: number) => void,
): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, failed: 0, errors: [] };
  const fail = (line: number, reason: string) => {
    report.failed++;
    if (report.errors.length < MAX_REPORTED) report.errors.push({ line, reason });
  };
  await recordRules(svc).prepare();
  let pending: { line: number; text: string }[] = [];
  const flush = () => {
    writeTransaction(svc, () => {
      for (const { line, text } of pending) {
        try {
          // A refused write rolls back to its own savepoint (write.ts); the batch goes on.
          importLine(svc, org, def, text);
          report.imported++;
        } catch (err) {
          fail(line, reasonOf(err));
        }
      }
    });
    pending = [];
  };
  let lineNo = 0;
  // Strict UTF-8 per line (a bad line is reported, never stored with U+FFFD), bounded line length.
  for await (const line of readNdjsonLines(input as AsyncIterable<Buffer | string>, { linesPerTurn: BATCH })) {
    lineNo = line.number;
    if (line.text === undefined) {
      fail(lineNo, `the line ${line.problem ?? 'cannot be read'}`);
      continue;
    }
    if (line.text.trim() === '') continue;
    pending.push({ line: lineNo, text: line.text });
    if (pending.length >= BATCH) {
      flush();
      onProgress?.(lineNo);
    }
  }
  flush();
  onProgress?.(lineNo);
  // The planner's statistics must describe the table as loaded, not as it was before the load.
  if (report.imported > 0) refreshStatistics(svc.db, [svc.store.table(org.id, def)]);
  return report;
}

function importLine(svc: Service, org: Org, def: ObjectDef, text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
  const { _id, created, updated, ...rest } = parsed as Record<string, unknown>;
  if (rest.object !== undefined && rest.object !== def.name)
    throw new Error(`object is ${String(rest.object)}, not ${def.name}`);
  // The caller's level as exported (`access`, or `accessLevel` where `access` is stored: connections).
  for (const key of [...COMPUTED, levelKey(def)]) delete rest[key];
  if (_id !== undefined && (typeof _id !== 'string' || !OBJECT_ID_PATTERN.test(_id))) {
    throw new Error('_id must be 24 lower-case hexadecimal characters');
  }
  const createdIso = created === undefined ? undefined : normaliseDate(created);
  const updatedIso = updated === undefined ? undefined : normaliseDate(updated);
  if (created !== undefined && !createdIso) throw new Error('created must be an ISO 8601 date');
  if (updated !== undefined && !updatedIso) throw new Error('updated must be an ISO 8601 date');
  const { values, faults } = validateInput(def, rest, 'create');
  if (faults.length > 0) throw new Error(faults.map((f) => `${f.path}: ${f.reason}`).join('; '));
  const meta = {
    ...(typeof _id === 'string' ? { _id } : {}),
    ...(createdIso ? { created: createdIso } : {}),
    ...(updatedIso ? { updated: updatedIso } : {}),
  };
  loadRecord(svc, org, def, values as Record<string, Json>, { meta });
}

function reasonOf(err: unknown): string {
  if (err instanceof FaultError)
    return `${err.fault.path ? `${err.fault.path}: ` : ''}${err.fault.reason ?? err.fault.message}`;
  return (err as Error).message;
}
