/**
 * How records go out to a caller, for every reader: each record in its API form with the caller's
 * level (objects/present.ts), stripped to what their scopes may read, projected to `paths`; a page
 * of whole records written from the stored text when nothing needs reshaping (the hot path of
 * lists and views; a page with expanded references spliced the same way, records/expand.ts).
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { projectPaths } from '../../../src-shared/query/project.js';
import type { AllowedProperties } from '../../../src-shared/scopes/property-path.js';
import type { Json } from '../objects/validate.js';
import type { StoredRecord } from '../objects/stored-record.js';
import { presentListText, presentRecord, presentRecordText, presentsVerbatim } from '../objects/present.js';
import { spliceTopLevelKeys } from '../objects/splice-keys.js';
import { readableProperties, stripProperties } from '../access/scope-guard.js';
import type { Caller } from '../access/caller.js';
import type { Page } from './list.js';

export type Presented = Record<string, Json>;
export type PageFormat = 'list' | 'ndjson';

/**
 * A record as the caller sees it: their level on it, stripped to what their scopes may read.
 * `typeAllowed`: what the scopes allow on every instance of the type, when known ('all' spares
 * the per-instance check).
 */
export function presentFor(
  caller: Caller,
  def: ObjectDef,
  record: StoredRecord,
  level: number,
  typeAllowed?: AllowedProperties,
): Presented {
  const presented = presentRecord(def, record, level);
  const allowed = allowedOn(caller, def, record._id, typeAllowed);
  return allowed === 'all' ? presented : stripProperties(presented, allowed);
}

/** What the caller's scopes let them read on one instance. */
export function allowedOn(
  caller: Caller,
  def: ObjectDef,
  id: string,
  typeAllowed?: AllowedProperties,
): AllowedProperties {
  return typeAllowed === 'all' ? 'all' : readableProperties(caller, def, id);
}

/**
 * The page's records as objects, projected to `paths`. `each` sees every record as it goes out
 * (REST adds list properties there), with the caller's level and allowed properties on it.
 */
export function pageRecords(
  caller: Caller,
  def: ObjectDef,
  page: Page,
  paths: readonly string[] | undefined,
  each?: (out: Presented, level: number, allowed: AllowedProperties) => void,
): Presented[] {
  return page.rows.map((r, i) => {
    const level = page.levels[i] ?? 0;
    const allowed = allowedOn(caller, def, r._id, page.allowed);
    const presented = presentRecord(def, r, level);
    const obj = allowed === 'all' ? presented : stripProperties(presented, allowed);
    const out = paths ? (projectPaths(obj, paths) as Presented) : obj;
    each?.(out, level, allowed);
    return out;
  });
}

/**
 * The page as JSON text built from its records' stored text, when whole records go out (no
 * projection, a definition without hidden properties) and the caller's scopes allow every
 * property (a session, or a token whose scopes grant this object's reads without property paths,
 * like `*`; an instance-less grant of 'all' holds for every instance, so no per-record check) or
 * whole top-level properties of every instance (each record's allowed members are copied from its
 * stored text, objects/splice-keys.ts, nothing parsed). Otherwise undefined.
 */
export function wholeRecordsText(
  caller: Caller,
  def: ObjectDef,
  page: Page,
  paths: readonly string[] | undefined,
  format: PageFormat = 'list',
): string | undefined {
  const rows = paths ? undefined : verbatimRows(caller, def, page);
  return rows && recordsText(def, rows, page, format);
}

/**
 * Each record of the page as its JSON text, under the same conditions as `wholeRecordsText`;
 * otherwise undefined. For splicing expanded references into the text (expand.ts).
 */
export function wholeRecordTexts(caller: Caller, def: ObjectDef, page: Page): string[] | undefined {
  return verbatimRows(caller, def, page)?.map((r, i) => presentRecordText(def, r, page.levels[i] ?? 0));
}

/** The page's stored texts as the caller may read them whole, or undefined when they need reshaping. */
function verbatimRows(
  caller: Caller,
  def: ObjectDef,
  page: Page,
): readonly { _id: string; text: string }[] | undefined {
  if (!presentsVerbatim(def)) return undefined;
  if (page.allowed === 'all') return page.rows;
  const topLevel = topLevelOnly(caller, page.allowed);
  return topLevel && page.rows.map((r) => ({ _id: r._id, text: spliceTopLevelKeys(r.text, topLevel) }));
}

function recordsText(
  def: ObjectDef,
  rows: readonly { _id: string; text: string }[],
  page: Page,
  format: PageFormat,
): string {
  if (format === 'list') return presentListText(def, rows, page.levels, page.hasMore);
  let text = '';
  for (let i = 0; i < rows.length; i++) text += `${presentRecordText(def, rows[i]!, page.levels[i] ?? 0)}\n`;
  return text;
}

/** The page as text in either format: from the stored text when it can be, else from objects. */
export function pageText(
  caller: Caller,
  def: ObjectDef,
  page: Page,
  paths: readonly string[] | undefined,
  format: PageFormat,
): string {
  const whole = wholeRecordsText(caller, def, page, paths, format);
  if (whole !== undefined) return whole;
  const data = pageRecords(caller, def, page, paths);
  if (format === 'list') return JSON.stringify({ object: 'list', data, hasMore: page.hasMore });
  let text = '';
  for (const r of data) text += `${JSON.stringify(r)}\n`;
  return text;
}

/**
 * The allowed top-level property names when the caller's scopes allow only whole top-level
 * properties, the same for every instance (no scope names an instance id); otherwise undefined.
 */
function topLevelOnly(caller: Caller, allowed: AllowedProperties): ReadonlySet<string> | undefined {
  if (allowed === 'all' || allowed.some((path) => path.includes('.'))) return undefined;
  if (caller.scopes?.some((chain) => /[0-9a-f]{24}/i.test(chain))) return undefined;
  return new Set(allowed);
}
