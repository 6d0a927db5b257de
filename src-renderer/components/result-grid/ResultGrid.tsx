import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ObjectRecord } from '../../api/records';
import { Cell, cellTitle } from './Cell';
import type { ColumnWidths } from './column-widths';
import type { Column } from './columns';
import { valueAt } from './encode';
import { HeaderCell, type HeaderSort } from './HeaderCell';

const ROW_HEIGHT = 28;

export type { HeaderSort } from './HeaderCell';

interface ResultGridProps {
  rows: ObjectRecord[];
  columns: Column[];
  org: string | undefined;
  stale: boolean;
  onOpen: (id: string) => void;
  /** Paths the service can sort by (indexed single values); other headers say why not. */
  sortable: ReadonlySet<string>;
  sort: HeaderSort | null;
  onSort: (sort: HeaderSort | null) => void;
  widths: ColumnWidths;
  onResize: (path: string, width: number) => void;
  /**
   * Names the page the rows are (its request): when settled rows of another page arrive, the grid
   * scrolls back to row 1, so the range above it is what shows. The same page refreshed keeps its
   * place. Without it, the grid keeps its scroll position.
   */
  pageKey?: string;
  /**
   * Moves the column `path` to where `target` is (a header dragged onto another, or Alt+←/→ on a
   * header). Without it, columns stay where they are.
   */
  onMove?: (path: string, target: string) => void;
}

/**
 * The result table, virtualized in both directions so 1000 rows × many columns stay smooth: only
 * the rows and columns in view are in the DOM. Arrow keys move the active row, Enter opens it.
 */
export function ResultGrid({
  rows,
  columns,
  org,
  stale,
  onOpen,
  sortable,
  sort,
  onSort,
  widths,
  onResize,
  pageKey,
  onMove,
}: ResultGridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const activeRow = Math.min(active, Math.max(rows.length - 1, 0));
  const shownPage = useRef(pageKey);

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design.
  const rowVirtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const columnVirtualizer = useVirtualizer({
    horizontal: true,
    count: columns.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => widthOf(columns[index], widths),
    overscan: 3,
  });
  // Another page's rows (a new query, Next/Prev, a header sort): back to row 1. While they load the
  // old rows stay (stale), so the jump waits for the new ones.
  useEffect(() => {
    if (stale || pageKey === shownPage.current) return;
    shownPage.current = pageKey;
    if (scroller.current) scroller.current.scrollTop = 0;
    setActive(0);
  }, [pageKey, stale]);
  // A dragged width changes the column's size: the virtualizer measures again.
  useEffect(() => columnVirtualizer.measure(), [columnVirtualizer, widths, columns]);

  const virtualColumns = columnVirtualizer.getVirtualItems();
  const totalWidth = columnVirtualizer.getTotalSize();
  const left = virtualColumns[0]?.start ?? 0;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = (to: number) => {
      event.preventDefault();
      const next = Math.max(0, Math.min(rows.length - 1, to));
      setActive(next);
      rowVirtualizer.scrollToIndex(next, { align: 'auto' });
    };
    if (event.key === 'ArrowDown') move(activeRow + 1);
    else if (event.key === 'ArrowUp') move(activeRow - 1);
    else if (event.key === 'PageDown') move(activeRow + 15);
    else if (event.key === 'PageUp') move(activeRow - 15);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(rows.length - 1);
    else if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
      const row = rows[activeRow];
      if (row) {
        event.preventDefault();
        onOpen(row._id);
      }
    }
  };

  return (
    <div
      ref={scroller}
      className={stale ? 'rgrid rgrid--stale' : 'rgrid'}
      role="grid"
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length}
      aria-busy={stale || undefined}
      aria-activedescendant={rows[activeRow] ? `rgrid-row-${activeRow}` : undefined}
      tabIndex={0}
      data-testid="result-grid"
      onKeyDown={onKeyDown}
    >
      <div className="rgrid__header" role="row" style={{ width: totalWidth }}>
        <div style={{ width: left, flex: 'none' }} />
        {virtualColumns.map((vc) => {
          const column = columns[vc.index];
          return column ? (
            <HeaderCell
              key={column.path}
              column={column}
              width={vc.size}
              sortable={sortable.has(column.path)}
              sort={sort?.path === column.path ? sort.dir : null}
              onSort={onSort}
              onResize={onResize}
              onMove={onMove}
              before={columns[vc.index - 1]?.path}
              after={columns[vc.index + 1]?.path}
            />
          ) : null;
        })}
      </div>
      <div className="rgrid__body" style={{ height: rowVirtualizer.getTotalSize(), width: totalWidth }}>
        {rowVirtualizer.getVirtualItems().map((vr) => {
          const row = rows[vr.index];
          if (!row) return null;
          return (
            <div
              key={row._id}
              id={`rgrid-row-${vr.index}`}
              className={vr.index === activeRow ? 'rgrid__row rgrid__row--active' : 'rgrid__row'}
              role="row"
              aria-rowindex={vr.index + 2}
              data-testid="result-row"
              data-id={row._id}
              style={{ transform: `translateY(${vr.start}px)`, height: ROW_HEIGHT }}
              onClick={() => {
                setActive(vr.index);
                onOpen(row._id);
              }}
            >
              <div style={{ width: left, flex: 'none' }} />
              {virtualColumns.map((vc) => {
                const column = columns[vc.index];
                if (!column) return null;
                const value = valueAt(row, column.path);
                return (
                  <div
                    key={column.path}
                    className="rgrid__td"
                    role="gridcell"
                    style={{ width: vc.size }}
                    title={cellTitle(value)}
                  >
                    <span className="rgrid__value">
                      <Cell column={column} value={value} org={org} />
                    </span>
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function widthOf(column: Column | undefined, widths: ColumnWidths): number {
  if (!column) return 180;
  return widths[column.path] ?? column.width;
}
