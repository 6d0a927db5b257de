import { useRef, useState } from 'react';
import { faultOf } from '../../../api/api-error';
import type { FaultBody } from '../../../../src-shared/faults';
import { FaultMessage } from '../../../components/FaultMessage';
import { useDismissableDetails } from '../../../components/use-dismissable-details';
import type { BaseQuery } from '../paging';
import { downloadBlob } from '../../../components/download';
import {
  blobSink,
  exportFileName,
  exportProgressText,
  runExport,
  type ExportFormat,
  type ExportProgress,
  type PageFetcher,
} from './export-runner';

interface ExportControlProps {
  collection: string;
  query: Omit<BaseQuery, 'limit' | 'skip'>;
  /** The grid's visible columns, in order. */
  visibleColumns: string[];
  /** Every column the query returns. */
  columns: string[];
  fetchPage: PageFetcher;
  disabled: boolean;
  /** How many records the query matches, when counted (the pager's total): the progress is out of it. */
  total?: number | undefined;
}

/** Exports every record of the current query to CSV or NDJSON, with progress and Cancel. */
export function ExportControl(props: ExportControlProps) {
  const { collection, query, visibleColumns, columns, fetchPage, disabled, total } = props;
  const [format, setFormat] = useState<ExportFormat>('csv');
  // What the person sees is what they export, unless they ask for everything the query returns.
  const [scope, setScope] = useState<'visible' | 'query'>('visible');
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [outcome, setOutcome] = useState<{ text: string } | { fault: FaultBody } | null>(null);
  const controller = useRef<AbortController | null>(null);
  // Closing the menu (Escape, a press outside, another collection) clears the last outcome, which
  // otherwise keeps it open; a running export goes on and shows again when the menu is reopened.
  const menu = useDismissableDetails(collection, () => setOutcome(null));

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setOutcome(null);
    setProgress({ records: 0, pages: 0 });
    try {
      const chosen = scope === 'visible' ? visibleColumns : columns;
      const sink = blobSink(format === 'csv' ? 'text/csv' : 'application/x-ndjson');
      const result = await runExport(
        fetchPage,
        query,
        format,
        chosen,
        setProgress,
        abort.signal,
        sink.write,
        scope === 'visible' ? visibleColumns : undefined,
      );
      downloadBlob(sink.blob(), exportFileName(collection, format, new Date()));
      setOutcome({ text: `Exported ${result.records.toLocaleString('en')} records.` });
    } catch (error) {
      if (abort.signal.aborted) setOutcome({ text: 'Export cancelled.' });
      else if (error instanceof Error && !('fault' in error)) {
        setOutcome({ fault: { ...faultOf(error), message: error.message } });
      } else setOutcome({ fault: faultOf(error) });
    } finally {
      controller.current = null;
      setProgress(null);
    }
  };

  return (
    <details
      className="popover export"
      data-testid="export-menu"
      ref={menu}
      open={progress !== null || outcome !== null || undefined}
    >
      <summary className="button button--secondary button--small">Export ▾</summary>
      <div className="popover__body export__body" role="group" aria-label="Export">
        <select
          className="select"
          aria-label="Export format"
          data-testid="export-format"
          value={format}
          disabled={progress !== null}
          onChange={(e) => setFormat(e.target.value === 'ndjson' ? 'ndjson' : 'csv')}
        >
          <option value="csv">CSV</option>
          <option value="ndjson">NDJSON</option>
        </select>
        <select
          className="select"
          aria-label="Columns to export"
          data-testid="export-scope"
          value={scope}
          disabled={progress !== null}
          onChange={(e) => setScope(e.target.value === 'query' ? 'query' : 'visible')}
        >
          <option value="visible">visible columns ({visibleColumns.length})</option>
          <option value="query">all query paths ({columns.length})</option>
        </select>
        {progress === null ? (
          <button
            type="button"
            className="button button--secondary button--small"
            data-testid="export-button"
            disabled={disabled}
            onClick={() => void start()}
            title="Export every record of this query, not just this page"
          >
            Export all
          </button>
        ) : (
          <>
            <ExportProgressLine progress={progress} total={total} />
            <button
              type="button"
              className="button button--ghost button--small"
              data-testid="export-cancel"
              onClick={() => controller.current?.abort()}
            >
              Cancel
            </button>
          </>
        )}
        {outcome && 'text' in outcome && (
          <span className="qb-hint" data-testid="export-result" role="status">
            {outcome.text}
          </span>
        )}
        {outcome && 'fault' in outcome && (
          <div className="export__fault">
            <FaultMessage fault={outcome.fault} compact />
          </div>
        )}
      </div>
    </details>
  );
}

/** The bar fills in proportion to the total when it is known; without one it only shows activity. */
function ExportProgressLine({ progress, total }: { progress: ExportProgress; total: number | undefined }) {
  const { text, fraction } = exportProgressText(progress, total);
  return (
    <span className="export__progress" data-testid="export-progress" role="status">
      {fraction === undefined ? (
        <progress aria-label="Export progress" />
      ) : (
        <progress aria-label="Export progress" data-testid="export-progress-bar" max={1} value={fraction} />
      )}
      {text}
    </span>
  );
}
