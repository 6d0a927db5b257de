import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState, type KeyboardEvent } from 'react';
import type { ObjectRecord } from '../../../api/records';
import { Cell } from './Cell';
import type { Column } from './columns';
import { valueAt } from './encode';

const ROW_HEIGHT = 28;

interface ResultGridProps {
  rows: ObjectRecord[];
  columns: Column[];
  org: string | undefined;
  stale: boolean;
  onOpen: (id: string) => void;
}

/**
 * The result table, virtualized in both directions so 1000 rows × many columns stay smooth: only
 * the rows and columns in view are in the DOM. Arrow keys move the active row, Enter opens it.
 */
export function ResultGrid({ rows, columns, org, stale, onOpen }: ResultGridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const activeRow = Math.min(active, Math.max(rows.length - 1, 0));

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
    estimateSize: (index) => columns[index]?.width ?? 180,
    overscan: 3,
  });

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
            <div key={column.path} className="rgrid__th" role="columnheader" style={{ width: vc.size }}>
              {column.path}
            </div>
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
                return column ? (
                  <div key={column.path} className="rgrid__td" role="gridcell" style={{ width: vc.size }}>
                    <Cell column={column} value={valueAt(row, column.path)} org={org} />
                  </div>
                ) : null;
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
