import { useState, type DragEvent, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import type { Column } from './columns';

/** The header's sort: one key (the grid sorts by one column; the bar takes several). */
export interface HeaderSort {
  path: string;
  dir: 1 | -1;
}

interface HeaderCellProps {
  column: Column;
  width: number;
  sortable: boolean;
  sort: 1 | -1 | null;
  onSort: (sort: HeaderSort | null) => void;
  onResize: (path: string, width: number) => void;
  onMove: ((path: string, target: string) => void) | undefined;
  /** The neighbours' paths, for Alt+←/→. */
  before: string | undefined;
  after: string | undefined;
}

const DRAGGED_COLUMN = 'application/x-console-column';

/**
 * A column header: click to sort (ascending, descending, back to the default order) where the
 * service can sort; elsewhere the button is disabled and says why. The right edge drags the width.
 */
export function HeaderCell(props: HeaderCellProps) {
  const { column, width, sortable, sort, onSort, onResize, onMove, before, after } = props;
  const [dropping, setDropping] = useState(false);
  const next: HeaderSort | null =
    sort === null ? { path: column.path, dir: 1 } : sort === 1 ? { path: column.path, dir: -1 } : null;
  const sortWhy = sortable
    ? `Sort by ${column.path}${sort === 1 ? ' descending' : sort === -1 ? ': back to the default order' : ''}`
    : `${column.path} can't be sorted: the service sorts only by indexed properties that hold one value.`;
  const why = onMove ? `${sortWhy} Drag to move the column.` : sortWhy;
  const startDrag = (event: ReactPointerEvent<HTMLSpanElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const startX = event.clientX;
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const move = (e: PointerEvent) => onResize(column.path, width + e.clientX - startX);
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
  };
  const moveKeys = (event: KeyboardEvent<HTMLElement>) => {
    if (!onMove || !event.altKey || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    const target = event.key === 'ArrowLeft' ? before : after;
    event.preventDefault();
    event.stopPropagation();
    if (target !== undefined) onMove(column.path, target);
  };
  const onHandleKey = (event: KeyboardEvent<HTMLSpanElement>) => {
    // Alt+←/→ moves the column (also one that can't be sorted, whose sort button is disabled).
    moveKeys(event);
    if (event.defaultPrevented) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      onResize(column.path, width + (event.key === 'ArrowRight' ? 16 : -16));
    }
  };
  const dragProps = onMove
    ? {
        draggable: true,
        onDragStart: (event: DragEvent<HTMLDivElement>) => {
          // A drag that starts on the resize handle resizes instead.
          if ((event.target as HTMLElement).closest('.rgrid__resize')) {
            event.preventDefault();
            return;
          }
          event.dataTransfer.setData(DRAGGED_COLUMN, column.path);
          event.dataTransfer.effectAllowed = 'move';
        },
        onDragOver: (event: DragEvent<HTMLDivElement>) => {
          if (!event.dataTransfer.types.includes(DRAGGED_COLUMN)) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'move';
          setDropping(true);
        },
        onDragLeave: () => setDropping(false),
        onDrop: (event: DragEvent<HTMLDivElement>) => {
          setDropping(false);
          const path = event.dataTransfer.getData(DRAGGED_COLUMN);
          if (path === '') return;
          event.preventDefault();
          onMove(path, column.path);
        },
      }
    : {};
  return (
    <div
      className={dropping ? 'rgrid__th rgrid__th--drop' : 'rgrid__th'}
      role="columnheader"
      style={{ width }}
      aria-sort={sort === 1 ? 'ascending' : sort === -1 ? 'descending' : undefined}
      data-testid="result-header"
      data-path={column.path}
      {...dragProps}
    >
      <button
        type="button"
        className="rgrid__sort"
        disabled={!sortable}
        title={why}
        aria-label={why}
        data-testid="result-sort"
        onClick={() => onSort(next)}
        onKeyDown={moveKeys}
      >
        <span className="rgrid__th-label">{column.path}</span>
        {sort !== null && <span aria-hidden="true">{sort === 1 ? ' ▲' : ' ▼'}</span>}
      </button>
      <span
        className="rgrid__resize"
        role="separator"
        aria-orientation="vertical"
        aria-label={onMove ? `Resize ${column.path} (Alt+←/→ moves it)` : `Resize ${column.path}`}
        aria-valuenow={width}
        tabIndex={0}
        data-testid="result-resize"
        onPointerDown={startDrag}
        onKeyDown={onHandleKey}
      />
    </div>
  );
}
