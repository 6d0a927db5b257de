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
import { newMemo, type HookedWrite } from './write-hooks.js';
import {
  afterLoadTriggers,
  beforeLoadTriggers,
  loadedPaths,
  loadTriggerHooks,
  type LoadTriggerHooks,
} from './load-triggers.js';

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
 *
 * With `triggers` (off by default, as the original's imports; the CLI's `--triggers`), each
 * record's create triggers run as an environment import's do (load-triggers.ts): its before
 * triggers ahead of its batch's transaction (what they change is validated with the rest; a
 * refusal is that line's failure, with the trigger's reason, and the other lines still load), its
 * after triggers once the batch committed. A record given no `_id` gets one before its triggers run.
 */
export async function importNdjson(
  svc: Service,
  org: Org,
  def: ObjectDef,
  input: Readable,
  onProgress?: (lines: number) => void,
  opts: { triggers?: boolean } = {},
): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, failed: 0, errors: [] };
  const fail = (line: number, reason: string) => {
    report.failed++;
    if (report.errors.length < MAX_REPORTED) report.errors.push({ line, reason });
  };
  const hooks = opts.triggers ? loadTriggerHooks(svc) : undefined;
  await recordRules(svc).prepare();
  let pending: { line: number; text: string }[] = [];
  const flush = async () => {
    // A batch's failures are found in three passes (parse, triggers, write): reported in line order.
    const failed: { line: number; reason: string }[] = [];
    const failLine = (line: number, reason: string) => void failed.push({ line, reason });
    const parsed: ParsedLine[] = [];
    for (const { line, text } of pending) {
      try {
        parsed.push({ line, ...parseLine(def, text) });
      } catch (err) {
        failLine(line, reasonOf(err));
      }
    }
    pending = [];
    const loads = hooks ? await beforeTriggers(svc, org, def, hooks, parsed, failLine) : parsed;
    const written: HookedWrite[] = [];
    writeTransaction(svc, () => {
      for (const load of loads) {
        try {
          // A refused write rolls back to its own savepoint (write.ts); the batch goes on.
          loadRecord(svc, org, def, valuesOf(def, load), { meta: load.meta });
          report.imported++;
          if (load.write) written.push(load.write);
        } catch (err) {
          failLine(load.line, reasonOf(err));
        }
      }
    });
    for (const f of failed.sort((a, b) => a.line - b.line)) fail(f.line, f.reason);
    if (hooks) for (const write of written) await afterLoadTriggers(svc, hooks, write);
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
      await flush();
      onProgress?.(lineNo);
    }
  }
  await flush();
  onProgress?.(lineNo);
  // The planner's statistics must describe the table as loaded, not as it was before the load.
  if (report.imported > 0) refreshStatistics(svc.db, [svc.store.table(org.id, def)]);
  return report;
}

/** A line as it will be loaded: its validated values, the body they came from, its `_id`/dates. */
interface ParsedLine {
  line: number;
  body: Record<string, unknown>;
  values: Record<string, Json>;
  meta: { _id?: string; created?: string; updated?: string };
  /** What its before triggers changed, and the write they saw (with `triggers`). */
  changes?: Record<string, Json>;
  write?: HookedWrite;
}

/**
 * Runs the before triggers of a batch's records, in file order, ahead of its transaction; a
 * record they refuse is its line's failure and is left out.
 */
async function beforeTriggers(
  svc: Service,
  org: Org,
  def: ObjectDef,
  hooks: LoadTriggerHooks,
  parsed: ParsedLine[],
  fail: (line: number, reason: string) => void,
): Promise<ParsedLine[]> {
  const out: ParsedLine[] = [];
  for (const load of parsed) {
    const id = load.meta._id ?? svc.store.newId();
    const write: HookedWrite = {
      org,
      def,
      op: 'create',
      id,
      next: load.values,
      modified: loadedPaths(load.values, undefined),
      dryRun: false,
      memo: newMemo(),
    };
    try {
      const changes = await beforeLoadTriggers(svc, hooks, write);
      out.push({ ...load, meta: { ...load.meta, _id: id }, write, ...(changes ? { changes } : {}) });
    } catch (err) {
      fail(load.line, reasonOf(err));
    }
  }
  return out;
}

/** The values to store: what the before triggers changed is validated with the rest of the line. */
function valuesOf(def: ObjectDef, load: ParsedLine): Record<string, Json> {
  if (!load.changes) return load.values;
  return validated(def, { ...load.body, ...load.changes });
}

function validated(def: ObjectDef, body: Record<string, unknown>): Record<string, Json> {
  const { values, faults } = validateInput(def, body, 'create');
  if (faults.length > 0) throw new Error(faults.map((f) => `${f.path}: ${f.reason}`).join('; '));
  return values as Record<string, Json>;
}

function parseLine(def: ObjectDef, text: string): Omit<ParsedLine, 'line'> {
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
  const meta = {
    ...(typeof _id === 'string' ? { _id } : {}),
    ...(createdIso ? { created: createdIso } : {}),
    ...(updatedIso ? { updated: updatedIso } : {}),
  };
  return { body: rest, values: validated(def, rest), meta };
}

function reasonOf(err: unknown): string {
  if (err instanceof FaultError)
    return `${err.fault.path ? `${err.fault.path}: ` : ''}${err.fault.reason ?? err.fault.message}`;
  return (err as Error).message;
}
