import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { JsonValue } from '../../../../src-shared/query/json';
import { aggregationQuery } from '../../../api/aggregations';
import { faultOf } from '../../../api/api-error';
import type { OrgClient } from '../../../api/org-client';
import { FaultMessage } from '../../../components/FaultMessage';
import type { BrowseRoute, Route } from '../../../routing/route';
import type { AggregationShow } from './agg-route';
import { ChartPanel } from './ChartPanel';
import { chartShape, groupKeyName } from './chart-shape';
import { DocumentTable } from './DocumentTable';

const PAGE_SIZES = [10, 25, 50, 100, 250, 500, 1000];
const SHOWS: { value: AggregationShow; label: string }[] = [
  { value: 'chart', label: 'Chart' },
  { value: 'table', label: 'Table' },
  { value: 'json', label: 'JSON' },
];

interface AggregationResultsProps {
  orgClient: OrgClient;
  route: BrowseRoute;
  navigate: (route: Route) => void;
  collection: string;
  /** The enabled stages as run. */
  stages: JsonValue[];
  /** Bring the result into view once it has arrived (after Run), then call `onRevealed`. */
  reveal: boolean;
  onRevealed: () => void;
}

/** The pipeline's result as run: a chart when its shape allows one, a table, or JSON. */
export function AggregationResults(props: AggregationResultsProps) {
  const { orgClient, route, navigate, collection, stages, reveal, onRevealed } = props;
  const page = useQuery(aggregationQuery(orgClient, collection, stages, route.limit));
  const section = useRef<HTMLElement>(null);
  const documents = useMemo(() => page.data?.items ?? [], [page.data]);
  const shape = useMemo(() => chartShape(documents), [documents]);
  const show: AggregationShow =
    route.show === 'chart' && !shape ? 'table' : (route.show ?? (shape ? 'chart' : 'table'));
  const go = (patch: Partial<BrowseRoute>) => navigate({ ...route, ...patch });
  const settled = page.isSuccess && !page.isPlaceholderData;
  const answered = settled || page.isError;

  useEffect(() => {
    if (!reveal || !answered) return;
    section.current?.scrollIntoView({ block: 'nearest' });
    onRevealed();
  }, [reveal, answered, onRevealed]);

  return (
    <section className="results agg-results" aria-label="Aggregation result" ref={section}>
      <div className="results__toolbar">
        <span className="pager__range" data-testid="agg-result-range" role="status">
          {!settled
            ? '\u00a0'
            : `${documents.length} ${documents.length === 1 ? 'document' : 'documents'}${page.data.hasMore ? ' (more exist: raise the page size or add $limit)' : ''}`}
        </span>
        <label className="inline-select">
          Page size
          <select
            className="select"
            value={route.limit}
            data-testid="agg-limit"
            onChange={(e) => go({ limit: Number(e.target.value) })}
          >
            {[...new Set([...PAGE_SIZES, route.limit])]
              .sort((a, b) => a - b)
              .map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
          </select>
        </label>
        <div className="segmented" role="group" aria-label="Show the result as">
          {SHOWS.map(({ value, label }) => (
            <button
              key={value}
              type="button"
              className={show === value ? 'segmented__item segmented__item--on' : 'segmented__item'}
              aria-pressed={show === value}
              data-testid={`agg-show-${value}`}
              disabled={value === 'chart' && !shape}
              title={
                value === 'chart' && !shape
                  ? 'A chart needs documents with an _id and a number, as $group gives.'
                  : undefined
              }
              onClick={() => go({ show: value })}
            >
              {label}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="button button--ghost button--small results__end"
          onClick={() => void page.refetch()}
          disabled={page.isFetching}
          aria-label="Refresh"
          title={page.isFetching ? 'Loading…' : 'Run the pipeline again'}
        >
          ↻
        </button>
      </div>
      <div className="agg-results__body">
        {page.isError ? (
          <FaultMessage fault={faultOf(page.error)} onRetry={() => void page.refetch()} />
        ) : !page.data ? (
          <p className="status-line" role="status">
            <span className="spinner" aria-hidden="true" /> Running the pipeline…
          </p>
        ) : documents.length === 0 ? (
          <div className="empty-state" data-testid="agg-result-empty">
            <p className="empty-state__title">No documents come out of the pipeline.</p>
          </div>
        ) : show === 'chart' && shape ? (
          <ChartPanel
            documents={documents}
            shape={shape}
            chosen={route.chart}
            onKind={(chart) => go({ chart })}
            name={collection}
            keyName={groupKeyName(stages)}
          />
        ) : show === 'json' ? (
          <pre className="json-view json-view--results" data-testid="agg-json-result" tabIndex={0}>
            {JSON.stringify(documents, null, 2)}
          </pre>
        ) : (
          <DocumentTable documents={documents} />
        )}
      </div>
    </section>
  );
}
