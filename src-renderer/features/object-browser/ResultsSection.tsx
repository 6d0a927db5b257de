import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { queryKeys } from '../../api/query-keys';
import { fetchListPage, listPageQuery, type ObjectRecord } from '../../api/records';
import { schemaDef, type Schema } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import { SaveAsViewButton } from '../../components/SaveAsViewDialog';
import { Pager } from '../../components/Pager';
import type { BrowseRoute, Route } from '../../routing/route';
import { RecordActions, RecordEditor, type EditorMode } from './records/RecordEditor';
import { allColumns, columnsForProjection, visibleColumns } from '../../components/result-grid/columns';
import { ColumnPicker } from './result-grid/ColumnPicker';
import { withReferenceColumns } from './references/reference-paths';
import { ExportControl } from './result-grid/ExportControl';
import { RecordDrawer } from './result-grid/RecordDrawer';
import { useColumnWidths } from '../../components/result-grid/column-widths';
import { applyOrder, moveColumn, useColumnOrder } from '../../components/result-grid/column-order';
import { ResultGrid, type HeaderSort } from '../../components/result-grid/ResultGrid';
import { sortablePaths } from './query-builder/operators';
import { pagerFor, type BaseQuery, type PagePlan } from './paging';
import { countQuery, rangeLabel } from './result-count';

const PAGE_SIZES = [10, 25, 50, 100, 250, 500, 1000];

interface ResultsSectionProps {
  orgClient: OrgClient;
  route: BrowseRoute;
  navigate: (route: Route) => void;
  schema: Schema;
  schemas: Schema[];
  base: BaseQuery;
  plan: PagePlan;
}

/** One page of the result: table or JSON, pager, columns, export, and the record drawer. */
export function ResultsSection({ orgClient, route, navigate, schema, schemas, base, plan }: ResultsSectionProps) {
  const queryClient = useQueryClient();
  const page = useQuery(listPageQuery(orgClient, schema.collection, plan.request));
  const [editor, setEditor] = useState<EditorMode | null>(null);
  const def = useMemo(() => schemaDef(schema), [schema]);
  const available = useMemo(
    () =>
      withReferenceColumns(
        columnsForProjection(allColumns(def), route.paths),
        route.paths,
        def,
        schemas.map(schemaDef),
      ),
    [def, route.paths, schemas],
  );
  const [order, setOrder] = useColumnOrder(route.org ?? orgClient.org, schema.collection);
  const columns = useMemo(
    () => applyOrder(visibleColumns(available, route.cols), order),
    [available, route.cols, order],
  );
  const rows = useMemo<ObjectRecord[]>(() => {
    const items = page.data?.items ?? [];
    return plan.reversed ? [...items].reverse() : items;
  }, [page.data, plan.reversed]);

  const settled = page.isSuccess && !page.isPlaceholderData;
  const sortable = useMemo(() => new Set(sortablePaths(def)), [def]);
  const headerSort = useMemo(() => headerSortOf(base.sort), [base.sort]);
  const [widths, setWidth] = useColumnWidths(route.org ?? orgClient.org, schema.collection);

  // The total: asked only once the page has shown, and cancellable (a count walks every match).
  const countKey = JSON.stringify(base.where ?? {});
  const [countOff, setCountOff] = useState<string | null>(null);
  const countOptions = countQuery(orgClient, schema.collection, base.where);
  const count = useQuery({ ...countOptions, enabled: settled && countOff !== countKey });
  const cancelCount = () => {
    setCountOff(countKey);
    void queryClient.cancelQueries({ queryKey: countOptions.queryKey });
  };
  const total: number | 'counting' | 'cancelled' | null =
    count.data !== undefined ? count.data : countOff === countKey ? 'cancelled' : count.isFetching ? 'counting' : null;
  const pager = settled ? pagerFor(plan, base, route.cursor, rows, page.data.hasMore) : null;
  const go = (patch: Partial<BrowseRoute>) => navigate({ ...route, ...patch });
  // Closing the drawer returns the keyboard to the grid, on the row that was open.
  const closeDrawer = useCallback(() => {
    navigate({ ...route, record: undefined });
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="result-grid"]')?.focus());
  }, [navigate, route]);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.collection(orgClient.org, schema.collection) });

  // The page the rows are: the request without the org (a refresh asks the same one).
  const pageKey = JSON.stringify(plan.request);
  const first = plan.mode === 'skip' ? base.skip + 1 : route.cursor ? null : 1;
  const rangeText = !settled ? '\u00a0' : rangeLabel({ first, rows: rows.length, total });
  const sortBy = (next: HeaderSort | null) =>
    go({
      sort: next ? JSON.stringify({ [next.path]: next.dir }) : undefined,
      skip: 0,
      cursor: undefined,
      record: undefined,
    });

  return (
    <section className="results" aria-label="Results">
      <div className="results__toolbar">
        <Pager
          testId="result"
          small
          range={rangeText}
          pageSize={{
            value: route.limit,
            options: [...new Set([...PAGE_SIZES, route.limit])].sort((a, b) => a - b),
            label: 'Page size',
            onChange: (limit) => go({ limit, skip: 0, cursor: undefined }),
          }}
          previousLabel="‹ Prev"
          canPrevious={Boolean(pager?.previous)}
          canNext={Boolean(pager?.next)}
          onPrevious={() => pager?.previous && go({ ...pager.previous, record: undefined })}
          onNext={() => pager?.next && go({ ...pager.next, record: undefined })}
        />
        {settled && total === 'counting' && (
          <button type="button" className="button button--link" data-testid="count-cancel" onClick={cancelCount}>
            Cancel count
          </button>
        )}
        {settled && total === 'cancelled' && (
          <button
            type="button"
            className="button button--link"
            data-testid="count-run"
            onClick={() => setCountOff(null)}
          >
            Count
          </button>
        )}
        {count.isError && (
          <span className="qb-inline-error" title={String(faultOf(count.error).message)}>
            count failed
          </span>
        )}
        <div className="segmented" role="group" aria-label="View">
          <button
            type="button"
            className={route.view === 'table' ? 'segmented__item segmented__item--on' : 'segmented__item'}
            aria-pressed={route.view === 'table'}
            data-testid="view-table"
            onClick={() => go({ view: 'table' })}
          >
            Table
          </button>
          <button
            type="button"
            className={route.view === 'json' ? 'segmented__item segmented__item--on' : 'segmented__item'}
            aria-pressed={route.view === 'json'}
            data-testid="view-json"
            onClick={() => go({ view: 'json' })}
          >
            JSON
          </button>
        </div>
        <ColumnPicker
          collection={schema.collection}
          available={available}
          visible={columns}
          onChange={(cols) => go({ cols })}
        />
        <ExportControl
          collection={schema.collection}
          query={{ where: base.where, sort: base.sort, paths: base.paths }}
          visibleColumns={columns.map((c) => c.path)}
          columns={available.map((c) => c.path)}
          fetchPage={(request, signal) => fetchListPage(orgClient, schema.collection, request, signal)}
          disabled={!page.isSuccess}
          total={typeof total === 'number' ? total : undefined}
        />
        <SaveAsViewButton
          orgClient={orgClient}
          routeOrg={route.org}
          query={{ objectName: schema.name, where: base.where, sort: base.sort, paths: base.paths, limit: base.limit }}
        />
        <button
          type="button"
          className="button button--secondary button--small results__end"
          data-testid="record-new"
          onClick={() => setEditor({ kind: 'create' })}
          title={`New ${schema.label}`}
        >
          + New
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => void page.refetch()}
          disabled={page.isFetching}
          aria-label="Refresh"
          title={page.isFetching ? 'Loading…' : 'Run the query again'}
        >
          ↻
        </button>
      </div>

      <div className="results__body">
        {page.isError ? (
          <FaultMessage fault={faultOf(page.error)} onRetry={() => void page.refetch()} />
        ) : !page.data ? (
          <p className="status-line" role="status">
            <span className="spinner" aria-hidden="true" /> Running the query…
          </p>
        ) : rows.length === 0 ? (
          <div className="empty-state" data-testid="result-empty">
            <p className="empty-state__title">No records match.</p>
            {route.cursor || route.skip > 0 ? (
              <button type="button" className="button button--link" onClick={() => go({ cursor: undefined, skip: 0 })}>
                Go to the first page
              </button>
            ) : (
              <p>Loosen the where, or add records with “New {schema.label}”.</p>
            )}
          </div>
        ) : route.view === 'json' ? (
          // Keyed by the page, so another page starts at its top as the table does.
          <pre key={pageKey} className="json-view json-view--results" data-testid="result-json" tabIndex={0}>
            {JSON.stringify(rows, null, 2)}
          </pre>
        ) : (
          <ResultGrid
            rows={rows}
            columns={columns}
            org={route.org}
            stale={page.isPlaceholderData}
            onOpen={(id) => go({ record: id })}
            sortable={sortable}
            sort={headerSort}
            onSort={sortBy}
            widths={widths}
            onResize={setWidth}
            pageKey={pageKey}
            onMove={(path, target) =>
              setOrder(
                moveColumn(
                  columns.map((c) => c.path),
                  path,
                  target,
                ),
              )
            }
          />
        )}
      </div>

      {route.record && !editor && (
        <RecordDrawer
          key={route.record}
          orgClient={orgClient}
          schema={schema}
          schemas={schemas}
          id={route.record}
          org={route.org}
          onClose={closeDrawer}
          actions={(record) => (
            <RecordActions
              orgClient={orgClient}
              schema={schema}
              record={record}
              onEdit={() => setEditor({ kind: 'edit', record })}
              onDeleted={() => {
                void refresh();
                closeDrawer();
              }}
            />
          )}
        />
      )}
      {editor && (
        <RecordEditor
          orgClient={orgClient}
          schema={schema}
          mode={editor}
          onClose={() => setEditor(null)}
          onSaved={(saved) => {
            setEditor(null);
            void refresh();
            go({ record: saved._id });
          }}
        />
      )}
    </section>
  );
}

/** The header's sort indicator: shown when the query sorts by exactly one key. */
function headerSortOf(sort: Record<string, 1 | -1> | undefined): HeaderSort | null {
  const keys = Object.entries(sort ?? {});
  if (keys.length !== 1) return null;
  const [path, dir] = keys[0] ?? ['', 1];
  return { path, dir: dir === -1 ? -1 : 1 };
}
