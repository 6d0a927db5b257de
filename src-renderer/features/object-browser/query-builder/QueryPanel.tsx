import { useEffect, useMemo, useState } from 'react';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { copyText } from '../../../components/download';
import { emptyGroup, fromWhere, toWhere, type GroupNode } from './builder-state';
import { ConditionTree } from './ConditionTree';
import { JsonEditor } from './JsonEditor';
import { projectablePaths, queryablePaths, sortablePaths } from './operators';
import { QueryLibraryMenu, useQueryLibrary } from './QueryLibraryMenu';
import { curlCommand, driverCallCommand } from './request-url';
import { recordRun, type SavedQuery } from './saved-queries';
import { PathsPicker, SortBuilder, type SortKey } from './SortAndPaths';
import { checkSortText, checkWhereText } from './validate-text';

/** A query as the URL keeps it: `where` and `sort` as compact JSON text. */
export interface QueryDraft {
  where?: string | undefined;
  sort?: string | undefined;
  paths: string[];
  limit: number;
}

interface QueryPanelProps {
  def: ObjectDef;
  org: string;
  initial: QueryDraft;
  /** The exact request of the page shown, or null while there is none. */
  requestUrl: string | null;
  appKey: string;
  onRun: (query: QueryDraft) => void;
}

/** The where builder ⇄ JSON view, sort, paths[], limit, Run, and the request it makes. */
export function QueryPanel({ def, org, initial, requestUrl, appKey, onRun }: QueryPanelProps) {
  const fields = useMemo(() => queryablePaths(def), [def]);
  const sortable = useMemo(() => sortablePaths(def), [def]);
  const projectable = useMemo(() => projectablePaths(def), [def]);

  const [whereText, setWhereText] = useState(() => pretty(initial.where));
  const [root, setRoot] = useState<GroupNode>(() => initialTree(initial.where));
  const [builderNote, setBuilderNote] = useState<string | null>(() => initialNote(initial.where));
  const [sortKeys, setSortKeys] = useState<SortKey[]>(() => initialSort(initial.sort, def));
  const [paths, setPaths] = useState<string[]>(initial.paths);
  const [limitText, setLimitText] = useState(String(initial.limit));
  const [copied, setCopied] = useState<string | null>(null);
  const [library, updateLibrary] = useQueryLibrary();

  const whereCheck = useMemo(() => checkWhereText(whereText, def), [whereText, def]);
  const sortText = sortKeys.length > 0 ? JSON.stringify(Object.fromEntries(sortKeys.map((k) => [k.path, k.dir]))) : '';
  const sortCheck = useMemo(() => checkSortText(sortText, def), [sortText, def]);
  const limit = /^\d{1,4}$/.test(limitText.trim()) ? Number(limitText) : NaN;
  const limitValid = limit >= 1 && limit <= 1000;
  const canRun = whereCheck.ok && sortCheck.ok && limitValid;

  const draft: QueryDraft = {
    where: whereCheck.ok && whereCheck.value !== undefined ? compact(whereCheck.value) : undefined,
    sort: sortText === '' ? undefined : sortText,
    paths,
    limit: limitValid ? limit : initial.limit,
  };
  const collection = def.collection;

  const run = () => {
    if (!canRun) return;
    updateLibrary((lib) => recordRun(lib, { org, collection, ...clean(draft), at: new Date().toISOString() }));
    onRun(draft);
  };

  // Ctrl/Cmd+Enter runs from anywhere on the screen.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const onJsonChange = (text: string) => {
    setWhereText(text);
    if (text.trim() === '') {
      setRoot(emptyGroup());
      setBuilderNote(null);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // The JSON view marks the syntax error; the builder shows no stale tree meanwhile.
      setBuilderNote('The builder shows the query again once the JSON parses.');
      return;
    }
    const result = fromWhere(parsed);
    if (result.ok) {
      setRoot(result.root);
      setBuilderNote(null);
    } else {
      setBuilderNote(`The builder can't show this query: ${result.reason}`);
    }
  };

  const onTreeChange = (next: GroupNode) => {
    setRoot(next);
    const where = toWhere(next);
    setWhereText(Object.keys(where).length === 0 ? '' : JSON.stringify(where, null, 2));
    setBuilderNote(null);
  };

  const copy = async (text: string, what: string) => {
    setCopied((await copyText(text)) ? `${what} copied.` : `Could not copy the ${what.toLowerCase()}.`);
  };

  return (
    <section className="query-panel" aria-label="Query">
      <div className="query-panel__where">
        <div className="query-panel__pane">
          <h2 className="pane-title">where · builder</h2>
          {builderNote === null ? (
            <ConditionTree root={root} fields={fields} onChange={onTreeChange} />
          ) : (
            <p className="qb-empty" data-testid="qb-builder-note" role="status">
              {builderNote}
            </p>
          )}
        </div>
        <div className="query-panel__pane">
          <h2 className="pane-title">where · JSON</h2>
          <JsonEditor
            value={whereText}
            onChange={onJsonChange}
            problem={whereCheck.ok ? null : whereCheck.problem}
            label="where as JSON"
            testId="qb-json"
          />
        </div>
      </div>
      <div className="query-panel__options">
        <span className="option-label">sort</span>
        <SortBuilder keys={sortKeys} sortable={sortable} onChange={setSortKeys} />
        {!sortCheck.ok && (
          <span className="qb-inline-error" data-testid="qb-sort-error">
            {sortCheck.problem.message}
          </span>
        )}
      </div>
      <div className="query-panel__options">
        <PathsPicker paths={paths} available={projectable} onChange={setPaths} />
        <label className="inline-select">
          limit
          <input
            className={
              limitValid ? 'input input--mono input--narrow' : 'input input--mono input--narrow input--invalid'
            }
            data-testid="qb-limit"
            inputMode="numeric"
            aria-invalid={!limitValid || undefined}
            value={limitText}
            onChange={(e) => setLimitText(e.target.value)}
          />
        </label>
        {!limitValid && <span className="qb-inline-error">limit is a whole number from 1 to 1000.</span>}
        <QueryLibraryMenu
          library={library}
          updateLibrary={updateLibrary}
          org={org}
          collection={collection}
          current={{ org, collection, ...clean(draft) }}
          onOpen={(entry: SavedQuery) => onRun(entry)}
        />
        <span className="query-panel__spacer" />
        <button
          type="button"
          className="button button--primary"
          data-testid="qb-run"
          disabled={!canRun}
          onClick={run}
          title="Run (Ctrl/Cmd+Enter)"
        >
          Run <kbd>Ctrl/⌘+Enter</kbd>
        </button>
      </div>
      <div className="request-line">
        <span className="option-label">GET</span>
        <code className="request-line__url" data-testid="qb-request-url">
          {requestUrl ?? '—'}
        </code>
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={!requestUrl}
          onClick={() => requestUrl && void copy(requestUrl, 'URL')}
        >
          Copy URL
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid="qb-copy-curl"
          disabled={!requestUrl}
          onClick={() => requestUrl && void copy(curlCommand(requestUrl, appKey), 'curl command')}
          title="Uses cookies.txt from a curl login (see README)"
        >
          Copy as curl
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid="qb-copy-driver"
          disabled={!requestUrl}
          onClick={() => requestUrl && void copy(driverCallCommand(requestUrl, appKey), 'driver call')}
          title="POST …/db/cursor with the query as a JSON body; uses cookies.txt and $CSRF from a curl login"
        >
          Copy as driver call
        </button>
        {copied && (
          <span className="qb-hint" role="status">
            {copied}
          </span>
        )}
      </div>
    </section>
  );
}

function pretty(text: string | undefined): string {
  if (text === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text; // Shown as typed, with the syntax error marked.
  }
}

function compact(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  return text === '{}' ? undefined : text;
}

function initialNote(where: string | undefined): string | null {
  if (where === undefined) return null;
  try {
    const result = fromWhere(JSON.parse(where));
    return result.ok ? null : `The builder can't show this query: ${result.reason}`;
  } catch {
    return 'The builder shows the query again once the JSON parses.';
  }
}

function initialTree(where: string | undefined): GroupNode {
  if (where === undefined) return emptyGroup();
  try {
    const result = fromWhere(JSON.parse(where));
    return result.ok ? result.root : emptyGroup();
  } catch {
    return emptyGroup();
  }
}

function initialSort(sort: string | undefined, def: ObjectDef): SortKey[] {
  if (sort === undefined) return [];
  if (!sort.trim().startsWith('{')) return [{ path: sort.trim(), dir: 1 }];
  const check = checkSortText(sort, def);
  const value = check.ok ? check.value : safeParse(sort);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).map(([path, dir]) => ({ path, dir: dir === -1 ? -1 : 1 }));
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function clean(draft: QueryDraft): Omit<SavedQuery, 'at' | 'name' | 'org' | 'collection'> {
  const out: Omit<SavedQuery, 'at' | 'name' | 'org' | 'collection'> = { paths: draft.paths, limit: draft.limit };
  if (draft.where !== undefined) out.where = draft.where;
  if (draft.sort !== undefined) out.sort = draft.sort;
  return out;
}
