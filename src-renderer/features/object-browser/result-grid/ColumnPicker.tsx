import type { Column } from '../../../components/result-grid/columns';
import { useDismissableDetails } from '../../../components/use-dismissable-details';

/** Chooses the visible columns; the choice lives in the URL (`cols=`). */
export function ColumnPicker({
  collection,
  available,
  visible,
  onChange,
}: {
  /** Another collection closes the menu. */
  collection: string;
  available: Column[];
  visible: Column[];
  onChange: (paths: string[] | undefined) => void;
}) {
  const menu = useDismissableDetails(collection);
  const shown = new Set(visible.map((c) => c.path));
  const toggle = (path: string, on: boolean) =>
    onChange(available.map((c) => c.path).filter((p) => (p === path ? on : shown.has(p))));
  return (
    <details className="popover" data-testid="column-picker" ref={menu}>
      <summary className="button button--secondary button--small">
        Columns {visible.length}/{available.length}
      </summary>
      <div className="popover__body" role="group" aria-label="Visible columns">
        <span className="popover__row">
          <button type="button" className="button button--link" onClick={() => onChange(available.map((c) => c.path))}>
            All
          </button>
          <button type="button" className="button button--link" onClick={() => onChange(undefined)}>
            Default
          </button>
        </span>
        {available.map((column) => (
          <label className="check" key={column.path}>
            <input
              type="checkbox"
              data-testid="column-option"
              value={column.path}
              checked={shown.has(column.path)}
              onChange={(e) => toggle(column.path, e.target.checked)}
            />
            <code>{column.path}</code>
          </label>
        ))}
      </div>
    </details>
  );
}
