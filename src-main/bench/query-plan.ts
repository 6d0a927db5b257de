/**
 * `EXPLAIN QUERY PLAN` read the way the bench and its plan test need it: which index each read of
 * a table uses, and whether SQLite sorts in a temporary B-tree instead of walking an index in order.
 */
import type Database from 'better-sqlite3';

export interface PlanCheck {
  /** Plan lines, as SQLite words them. */
  lines: string[];
  /** What is wrong with the plan; empty when it is as intended. */
  problems: string[];
}

export function queryPlan(db: Database.Database, sql: string, params: unknown[]): string[] {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
  return rows.map((r) => r.detail);
}

/**
 * Checks that every read of `table` uses the index `index`, and that
 * no temporary B-tree sorts rows, beyond `mergeSorts` of them (the bench's own workloads allow
 * none: since issue 43 even the case-insensitive prefix's union is merged in index order).
 */
export function checkPlan(lines: string[], table: string, index: string, mergeSorts = 0): PlanCheck {
  const problems: string[] = [];
  const reads = lines.filter((l) => new RegExp(`^(SCAN|SEARCH) ${table}\\b`).test(l));
  if (reads.length === 0) problems.push(`no read of ${table}`);
  for (const read of reads) {
    if (!read.includes(`USING INDEX ${index}`) && !read.includes(`USING COVERING INDEX ${index}`)) {
      problems.push(`"${read}" does not use ${index}`);
    }
  }
  const sorts = lines.filter((l) => l.includes('USE TEMP B-TREE'));
  if (sorts.length > mergeSorts) problems.push(`sorts in a temporary B-tree: ${sorts.join('; ')}`);
  return { lines, problems };
}
