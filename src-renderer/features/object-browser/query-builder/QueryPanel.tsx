import { useEffect, useMemo, useState } from 'react';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { countConditions, emptyGroup, fromWhere, toWhere, type GroupNode } from './builder-state';
import { ConditionTree } from './ConditionTree';
import { JsonEditor } from './JsonEditor';
import { projectablePaths, queryablePaths, sortablePaths } from './operators';
import { QueryLibraryMenu, useQueryLibrary } from './QueryLibraryMenu';
import { RequestMenu } from './RequestMenu';
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
  // The bar's one-line text; follows the builder and the JSON view, kept as typed while typing.
  const [barText, setBarText] = useState(() => oneLine(initial.where));
  const [root, setRoot] = useState<GroupNode>(() => initialTree(initial.where));
  const [builderNote, setBuilderNote] = useState<string | null>(() => initialNote(initial.where));
  const [sortText, setSortText] = useState(() => initialSortText(initial.sort));
  const [paths, setPaths] = useState<string[]>(initial.paths);
  const [limitText, setLimitText] = useState(String(initial.limit));
  const [expanded, setExpanded] = useBuilderOpen();
  const [library, updateLibrary] = useQueryLibrary();

  const whereCheck = useMemo(() => checkWhereText(whereText, def), [whereText, def]);
  const sortCheck = useMemo(() => checkSortText(sortText, def), [sortText, def]);
  const sortKeys = useMemo(() => sortKeysOf(sortText), [sortText]);
  const limit = /^\d{1,4}$/.test(limitText.trim()) ? Number(limitText) : NaN;
  const limitValid = limit >= 1 && limit <= 1000;
  const canRun = whereCheck.ok && sortCheck.ok && limitValid;

  const draft: QueryDraft = {
    where: whereCheck.ok && whereCheck.value !== undefined ? compact(whereCheck.value) : undefined,
    sort: sortCheck.ok && sortCheck.value !== undefined ? compact(sortCheck.value) : undefined,
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

  /** New where text from the JSON view or the bar: the builder follows when it can show it. */
  const onWhereText = (text: string, from: 'json' | 'bar') => {
    if (from === 'bar') setBarText(text);
    if (text.trim() === '') {
      setWhereText('');
      if (from === 'json') setBarText('');
      setRoot(emptyGroup());
      setBuilderNote(null);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      setWhereText(text);
      if (from === 'json') setBarText(text.replace(/\s*\n\s*/g, ' '));
      // The JSON view marks the syntax error; the builder shows no stale tree meanwhile.
      setBuilderNote('The builder shows the query again once the JSON parses.');
      return;
    }
    setWhereText(from === 'bar' ? JSON.stringify(parsed, null, 2) : text);
    if (from === 'json') setBarText(JSON.stringify(parsed));
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
    const empty = Object.keys(where).length === 0;
    setWhereText(empty ? '' : JSON.stringify(where, null, 2));
    setBarText(empty ? '' : JSON.stringify(where));
    setBuilderNote(null);
  };

  const barProblem = !whereCheck.ok ? whereCheck.problem : !sortCheck.ok ? sortCheck.problem : null;

  return (
    <section className="query-panel" aria-label="Query">
      <div className="query-bar" role="group" aria-label="Query bar">
        <label className="query-bar__field query-bar__field--where">
          <span className="option-label">where</span>
          <input
            className={whereCheck.ok ? 'input input--mono' : 'input input--mono input--invalid'}
            data-testid="qb-bar-where"
            aria-invalid={!whereCheck.ok || undefined}
            spellCheck={false}
            placeholder='{"name.last": {"$regex": "/^s/i"}}'
            value={barText}
            onChange={(e) => onWhereText(e.target.value, 'bar')}
          />
        </label>
        <label className="query-bar__field query-bar__field--sort">
          <span className="option-label">sort</span>
          <input
            className={sortCheck.ok ? 'input input--mono' : 'input input--mono input--invalid'}
            data-testid="qb-bar-sort"
            aria-invalid={!sortCheck.ok || undefined}
            spellCheck={false}
            placeholder="_id descending"
            value={sortText}
            onChange={(e) => setSortText(e.target.value)}
          />
        </label>
        <PathsPicker paths={paths} available={projectable} onChange={setPaths} />
        <button
          type="button"
          className="button button--secondary button--small"
          aria-expanded={expanded}
          aria-controls="query-builder-panel"
          data-testid="qb-toggle-builder"
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Hide builder ▴' : `Builder${countLabel(root)} ▾`}
        </button>
        <QueryLibraryMenu
          library={library}
          updateLibrary={updateLibrary}
          org={org}
          collection={collection}
          current={{ org, collection, ...clean(draft) }}
          onOpen={(entry: SavedQuery) => onRun(entry)}
        />
        <RequestMenu requestUrl={requestUrl} appKey={appKey} collection={collection} />
        <button
          type="button"
          className="button button--primary button--small"
          data-testid="qb-run"
          disabled={!canRun}
          onClick={run}
          title="Run (Ctrl/Cmd+Enter)"
        >
          Run <kbd>Ctrl/⌘+Enter</kbd>
        </button>
      </div>
      {!expanded && barProblem && (
        <p className="qb-inline-error query-bar__problem" data-testid="qb-bar-error">
          {barProblem.path ? <code>{barProblem.path}</code> : null} {barProblem.message}
        </p>
      )}
      {!limitValid && <span className="qb-inline-error">limit is a whole number from 1 to 1000.</span>}
      {expanded && (
        <div className="query-panel__expanded" id="query-builder-panel">
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
                onChange={(text) => onWhereText(text, 'json')}
                problem={whereCheck.ok ? null : whereCheck.problem}
                label="where as JSON"
                testId="qb-json"
              />
            </div>
          </div>
          <div className="query-panel__options">
            <span className="option-label">sort</span>
            <SortBuilder
              keys={sortKeys}
              sortable={sortable}
              onChange={(keys) =>
                setSortText(keys.length > 0 ? JSON.stringify(Object.fromEntries(keys.map((k) => [k.path, k.dir]))) : '')
              }
            />
            {!sortCheck.ok && (
              <span className="qb-inline-error" data-testid="qb-sort-error">
                {sortCheck.problem.message}
              </span>
            )}
            <span className="query-panel__spacer" />
            <label className="query-bar__field query-bar__field--limit">
              <span className="option-label">limit</span>
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
          </div>
        </div>
      )}
    </section>
  );
}

function countLabel(root: GroupNode): string {
  const n = countConditions(root);
  return n === 0 ? '' : ` (${n})`;
}

const BUILDER_OPEN_KEY = 'console.browse.builderOpen';

/** Whether the builder is expanded; remembered across visits, closed by default (Compass's bar). */
function useBuilderOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => readStored(BUILDER_OPEN_KEY) === 'true');
  return [
    open,
    (next) => {
      setOpen(next);
      writeStored(BUILDER_OPEN_KEY, String(next));
    },
  ];
}

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    /* storage full or off: the choice lasts for this visit */
  }
}

function oneLine(text: string | undefined): string {
  if (text === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

function initialSortText(sort: string | undefined): string {
  if (sort === undefined) return '';
  if (!sort.trim().startsWith('{')) return JSON.stringify({ [sort.trim()]: 1 });
  return oneLine(sort);
}

function sortKeysOf(text: string): SortKey[] {
  const value = safeParse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).map(([path, dir]) => ({ path, dir: dir === -1 ? -1 : 1 }));
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
