/**
 * Columns for a table of pipeline output, whose documents have any shape: every leaf path of
 * the documents (plain documents opened into `a.b`, arrays kept whole), in first-seen order,
 * `_id` first. Pure, so unit-tested.
 */
import type { PipelineDocument } from '../../../api/aggregations';

/** Enough columns for any reasonable `$group` or `$project`; more are left to the JSON view. */
export const MAX_TABLE_COLUMNS = 40;
/** Documents looked at for columns (the rest usually share their shape). */
const SAMPLE = 200;

export function documentColumns(docs: readonly PipelineDocument[]): string[] {
  const seen = new Set<string>();
  const walk = (value: unknown, prefix: string, depth: number) => {
    const plain = typeof value === 'object' && value !== null && !Array.isArray(value);
    if (prefix !== '' && (!plain || depth >= 4 || Object.keys(value as object).length === 0)) {
      seen.add(prefix);
      return;
    }
    if (!plain) return;
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      walk(inner, prefix === '' ? key : `${prefix}.${key}`, depth + 1);
    }
  };
  for (const doc of docs.slice(0, SAMPLE)) walk(doc, '', 0);
  const columns = [...seen];
  const rank = (path: string) => (path === '_id' || path.startsWith('_id.') ? 0 : 1);
  return columns.sort((a, b) => rank(a) - rank(b)).slice(0, MAX_TABLE_COLUMNS);
}

/** A cell's text: text as it is, nothing as empty, documents and arrays as JSON. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
