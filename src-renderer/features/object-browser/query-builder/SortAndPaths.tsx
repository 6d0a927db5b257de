import { useState } from 'react';
import { useDismissableDetails } from '../../../components/use-dismissable-details';

export interface SortKey {
  path: string;
  dir: 1 | -1;
}

/** Ordered sort keys; the order of the list is the order of sorting. */
export function SortBuilder({
  keys,
  sortable,
  onChange,
}: {
  keys: SortKey[];
  sortable: string[];
  onChange: (keys: SortKey[]) => void;
}) {
  const move = (from: number, to: number) => {
    const next = [...keys];
    const [item] = next.splice(from, 1);
    if (item) next.splice(to, 0, item);
    onChange(next);
  };
  const unused = sortable.filter((p) => !keys.some((k) => k.path === p));
  return (
    <div className="qb-sort" role="group" aria-label="Sort" data-testid="qb-sort">
      {keys.length === 0 && <span className="qb-hint">Default order: _id descending (newest first).</span>}
      {keys.map((key, index) => (
        <span className="qb-sort__key" key={key.path} data-testid="qb-sort-key">
          <select
            className="select"
            aria-label={`Sort key ${index + 1}`}
            data-testid="qb-sort-path"
            value={key.path}
            onChange={(e) => onChange(keys.map((k, i) => (i === index ? { ...k, path: e.target.value } : k)))}
          >
            {[key.path, ...unused].map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <select
            className="select"
            aria-label={`Direction of ${key.path}`}
            data-testid="qb-sort-dir"
            value={key.dir}
            onChange={(e) =>
              onChange(keys.map((k, i) => (i === index ? { ...k, dir: e.target.value === '-1' ? -1 : 1 } : k)))
            }
          >
            <option value="1">↑ 1</option>
            <option value="-1">↓ -1</option>
          </select>
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={`Move ${key.path} earlier`}
            disabled={index === 0}
            onClick={() => move(index, index - 1)}
          >
            ←
          </button>
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={`Remove sort key ${key.path}`}
            onClick={() => onChange(keys.filter((_, i) => i !== index))}
          >
            ×
          </button>
        </span>
      ))}
      {unused.length > 0 && keys.length < 10 && (
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid="qb-sort-add"
          onClick={() => onChange([...keys, { path: unused[0] ?? '_id', dir: 1 }])}
        >
          + Sort key
        </button>
      )}
    </div>
  );
}

/** `paths[]`: which properties the service returns (`_id` and `object` always come back). */
export function PathsPicker({
  paths,
  available,
  onChange,
}: {
  paths: string[];
  available: string[];
  onChange: (paths: string[]) => void;
}) {
  const menu = useDismissableDetails();
  const [find, setFind] = useState('');
  const wanted = find.trim().toLowerCase();
  const shown = wanted === '' ? available : available.filter((path) => path.toLowerCase().includes(wanted));
  return (
    <details className="popover" data-testid="qb-paths" ref={menu}>
      <summary className="button button--secondary button--small">
        paths: {paths.length === 0 ? 'all' : paths.length}
      </summary>
      <div className="popover__body" role="group" aria-label="Returned paths">
        <input
          className="input input--mono qb-paths__find"
          type="search"
          aria-label="Find a property (Enter adds the first match)"
          placeholder="Find a property…"
          data-testid="qb-paths-find"
          value={find}
          onChange={(e) => setFind(e.target.value)}
          onKeyDown={(e) => {
            // Enter adds the first match: a path is found and chosen without the mouse.
            const first = shown[0];
            if (e.key !== 'Enter' || first === undefined || wanted === '') return;
            e.preventDefault();
            if (!paths.includes(first)) onChange([...paths, first]);
            setFind('');
          }}
        />
        <button type="button" className="button button--link" onClick={() => onChange([])}>
          All properties
        </button>
        {shown.length === 0 && <p className="qb-hint">No property matches.</p>}
        {shown.map((path) => (
          <label className="check" key={path}>
            <input
              type="checkbox"
              data-testid="qb-path-option"
              value={path}
              checked={paths.includes(path)}
              onChange={(e) => onChange(e.target.checked ? [...paths, path] : paths.filter((p) => p !== path))}
            />
            <code>{path}</code>
          </label>
        ))}
      </div>
    </details>
  );
}
