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
  records: number;
}

/** Where an export's text goes, page by page, as it is fetched. */
export type ExportSink = (chunk: string) => void;

/**
 * A sink that keeps each page as a Blob: the text leaves the JavaScript heap page by page (the
 * browser keeps blob data in its own storage, spilling large ones to disk), so exporting a
 * million records does not hold half a gigabyte of strings in the console's heap until saved
 * (docs/SPEED.md#ten-million-npm-run-benchscale). `blob()` joins them without copying into JS.
 */
export function blobSink(type: string): { write: ExportSink; blob: () => Blob; bytes: () => number } {
  const parts: Blob[] = [];
  let bytes = 0;
  return {
    write: (chunk) => {
      const part = new Blob([chunk]);
      bytes += part.size;
      parts.push(part);
    },
    blob: () => new Blob(parts, { type }),
    bytes: () => bytes,
  };
}

export async function runExport(
  fetchPage: PageFetcher,
  query: Omit<BaseQuery, 'limit' | 'skip'>,
  format: ExportFormat,
  columns: readonly string[],
  onProgress: (progress: ExportProgress) => void,
  signal: AbortSignal,
  write: ExportSink,
  /** NDJSON only: keep just these paths of each record (`_id` and `object` always stay). */
  keepPaths?: readonly string[],
): Promise<ExportResult> {
  if (format === 'csv') write(csvHeader(columns));
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
    write(format === 'csv' ? csvRows(items, columns) : ndjsonRows(items));
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
  return { records };
}

const COUNT = new Intl.NumberFormat('en-US');

/**
 * The progress line: "2,000 of 12,345 records (16%) · page 3" with the query's total, or
 * "2,000 records · page 3" while it is unknown; `fraction` drives a proportional bar (undefined:
 * an indeterminate one). A total that the export overtook (records written meanwhile) caps at 100%.
 */
export function exportProgressText(
  progress: ExportProgress,
  total: number | undefined,
): { text: string; fraction?: number } {
  const page = `page ${progress.pages + 1}`;
  if (total === undefined) return { text: `${COUNT.format(progress.records)} records · ${page}` };
  const fraction = total === 0 ? 1 : Math.min(1, progress.records / total);
  return {
    text: `${COUNT.format(progress.records)} of ${COUNT.format(Math.max(total, progress.records))} records (${Math.floor(fraction * 100)}%) · ${page}`,
    fraction,
  };
}

/** `accounts-2025-01-31T12-00-00.csv` */
export function exportFileName(collection: string, format: ExportFormat, now: Date): string {
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, '-');
  return `${collection}-${stamp}.${format === 'csv' ? 'csv' : 'ndjson'}`;
}
