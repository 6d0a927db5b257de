/**
 * Exports the whole result of a query (where/sort/paths honoured), page by page: keyset paging
 * when the order is by `_id`, skip paging otherwise. Cancelling aborts the request in flight.
 */
import { MAX_LIMIT, MAX_SKIP } from '../../../../src-shared/query/limits';
import type { ListRequest, ObjectRecord } from '../../../api/records';
import type { ListPage } from '../../../api/types';
import { planPage, type BaseQuery } from '../paging';
import { projectPaths } from '../../../../src-shared/query/project';
import { csvHeader, csvRows, ndjsonRows } from '../../../components/result-grid/encode';

export type ExportFormat = 'csv' | 'ndjson';

export interface ExportProgress {
  records: number;
  pages: number;
}

export type PageFetcher = (request: ListRequest, signal: AbortSignal) => Promise<ListPage<ObjectRecord>>;

export interface ExportResult {
  parts: string[];
  records: number;
}

export async function runExport(
  fetchPage: PageFetcher,
  query: Omit<BaseQuery, 'limit' | 'skip'>,
  format: ExportFormat,
  columns: readonly string[],
  onProgress: (progress: ExportProgress) => void,
  signal: AbortSignal,
  /** NDJSON only: keep just these paths of each record (`_id` and `object` always stay). */
  keepPaths?: readonly string[],
): Promise<ExportResult> {
  const parts: string[] = format === 'csv' ? [csvHeader(columns)] : [];
  const base: BaseQuery = { ...query, limit: MAX_LIMIT, skip: 0 };
  let cursor: { dir: 'after'; id: string } | undefined;
  let records = 0;
  let pages = 0;
  for (;;) {
    signal.throwIfAborted();
    const plan = planPage(base, cursor);
    const page = await fetchPage(plan.request, signal);
    const items = keepPaths
      ? page.items.map((item) => ({ ...projectPaths(item, keepPaths), _id: item._id }))
      : page.items;
    parts.push(format === 'csv' ? csvRows(items, columns) : ndjsonRows(items));
    records += page.items.length;
    pages += 1;
    onProgress({ records, pages });
    const last = page.items[page.items.length - 1];
    if (!page.hasMore || !last) break;
    if (plan.mode === 'keyset') {
      cursor = { dir: 'after', id: last._id };
    } else {
      base.skip += MAX_LIMIT;
      if (base.skip > MAX_SKIP) {
        throw new Error(
          `The result is larger than skip paging reaches (${MAX_SKIP.toLocaleString('en')} records). ` +
            'Sort by _id (keyset paging) or narrow the where.',
        );
      }
    }
  }
  return { parts, records };
}

/** `accounts-2025-01-31T12-00-00.csv` */
export function exportFileName(collection: string, format: ExportFormat, now: Date): string {
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, '-');
  return `${collection}-${stamp}.${format === 'csv' ? 'csv' : 'ndjson'}`;
}
