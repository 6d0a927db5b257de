import { useRef, useState } from 'react';
import { downloadBlob } from '../../../components/download';
import { useDismissableDetails } from '../../../components/use-dismissable-details';
import {
  forCollection,
  loadLibrary,
  mergeLibraries,
  parseQueryLibrary,
  removeNamed,
  saveNamed,
  serializeQueryLibrary,
  storeLibrary,
  type QueryLibrary,
  type SavedQuery,
} from './saved-queries';

/** The query library in localStorage, as React state. */
export function useQueryLibrary(): [QueryLibrary, (update: (library: QueryLibrary) => QueryLibrary) => void] {
  const [library, setLibrary] = useState<QueryLibrary>(() => loadLibrary(safeStorage()));
  const update = (change: (library: QueryLibrary) => QueryLibrary) => {
    setLibrary((current) => {
      // Re-read first: another tab may have saved queries meanwhile.
      const next = change(mergeLibraries(loadLibrary(safeStorage()), current));
      storeLibrary(safeStorage(), next);
      return next;
    });
  };
  return [library, update];
}

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

interface MenuProps {
  library: QueryLibrary;
  updateLibrary: (update: (library: QueryLibrary) => QueryLibrary) => void;
  org: string;
  collection: string;
  current: Omit<SavedQuery, 'at' | 'name'>;
  onOpen: (query: SavedQuery) => void;
}

/** History of runs and named queries of this collection; export to / import from a JSON file. */
export function QueryLibraryMenu({ library, updateLibrary, org, collection, current, onOpen }: MenuProps) {
  const [name, setName] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const menu = useDismissableDetails(collection);
  const saved = forCollection(library.saved, org, collection);
  const history = forCollection(library.history, org, collection);

  const save = () => {
    const trimmed = name.trim();
    if (trimmed === '') return;
    updateLibrary((lib) => saveNamed(lib, { ...current, name: trimmed, at: new Date().toISOString() }));
    setName('');
    setMessage(`Saved “${trimmed}”.`);
  };

  const importFile = async (file: File) => {
    try {
      const imported = parseQueryLibrary(await file.text());
      updateLibrary((lib) => mergeLibraries(lib, imported));
      setMessage(`Imported ${imported.saved.length} saved and ${imported.history.length} history entries.`);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <details className="popover" data-testid="qb-library" ref={menu}>
      <summary className="button button--secondary button--small">Saved ({saved.length})</summary>
      <div className="popover__body popover__body--wide">
        <form
          className="qb-save"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <input
            className="input"
            aria-label="Name for this query"
            placeholder="Name this query"
            data-testid="qb-save-name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" className="button button--primary button--small" data-testid="qb-save">
            Save
          </button>
        </form>
        {message && (
          <p className="qb-hint" role="status">
            {message}
          </p>
        )}
        <p className="popover__heading">Saved queries</p>
        {saved.length === 0 && <p className="qb-hint">None for {collection} yet.</p>}
        <ul className="qb-entries" data-testid="qb-saved">
          {saved.map((entry) => (
            <li key={`${entry.name}-${entry.at}`}>
              <button type="button" className="qb-entry" onClick={() => onOpen(entry)}>
                <strong>{entry.name}</strong>
                <code>{describe(entry)}</code>
              </button>
              <button
                type="button"
                className="icon-button icon-button--small"
                aria-label={`Remove saved query ${entry.name ?? ''}`}
                onClick={() => updateLibrary((lib) => removeNamed(lib, entry))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <p className="popover__heading">History</p>
        {history.length === 0 && <p className="qb-hint">Queries you run on {collection} appear here.</p>}
        <ul className="qb-entries" data-testid="qb-history">
          {history.map((entry) => (
            <li key={`${entry.at}-${describe(entry)}`}>
              <button type="button" className="qb-entry" onClick={() => onOpen(entry)}>
                <span className="qb-entry__time">{entry.at.slice(0, 19).replace('T', ' ')}</span>
                <code>{describe(entry)}</code>
              </button>
            </li>
          ))}
        </ul>
        <div className="qb-library-actions">
          <button
            type="button"
            className="button button--secondary button--small"
            data-testid="qb-library-export"
            onClick={() =>
              downloadBlob(
                new Blob([serializeQueryLibrary(library)], { type: 'application/json' }),
                'console-queries.json',
              )
            }
          >
            Export all…
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => fileInput.current?.click()}
          >
            Import…
          </button>
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            hidden
            data-testid="qb-library-import"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void importFile(file);
              e.target.value = '';
            }}
          />
        </div>
      </div>
    </details>
  );
}

function describe(entry: SavedQuery): string {
  if (entry.pipeline !== undefined) {
    const off = entry.off && entry.off.length > 0 ? ` · ${entry.off.length} off` : '';
    return `pipeline ${entry.pipeline}${off} · limit ${entry.limit}`;
  }
  const parts = [entry.where ?? '{}'];
  if (entry.sort) parts.push(`sort ${entry.sort}`);
  if (entry.paths.length > 0) parts.push(`paths ${entry.paths.join(',')}`);
  parts.push(`limit ${entry.limit}`);
  return parts.join(' · ');
}
