import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { ExpandedBuilder } from './ExpandedBuilder';
import { projectablePaths, queryablePaths, sortablePaths } from './operators';
import { QueryLibraryMenu, useQueryLibrary } from './QueryLibraryMenu';
import {
  clean,
  compact,
  countLabel,
  initialSortText,
  sortKeysOf,
  wherePlaceholder,
  type QueryDraft,
} from './query-text';
import { RequestMenu } from './RequestMenu';
import { recordRun, type SavedQuery } from './saved-queries';
import { PathsPicker } from './SortAndPaths';
import { useBuilderOpen } from './use-builder-open';
import { useKeyCompletion } from './use-key-completion';
import { useWhereText } from './use-where-text';
import { checkSortText, checkWhereText } from './validate-text';

export type { QueryDraft } from './query-text';

const NO_PATHS: readonly string[] = [];

interface QueryPanelProps {
  def: ObjectDef;
  /** Paths into references (`owner.name.first`) the paths picker offers too. */
  referencePaths?: readonly string[];
  org: string;
  initial: QueryDraft;
  /** The exact request of the page shown, or null while there is none. */
  requestUrl: string | null;
  appKey: string;
  onRun: (query: QueryDraft) => void;
}

/** The where builder ⇄ JSON view, sort, paths[], limit, Run, and the request it makes. */
export function QueryPanel({
  def,
  referencePaths = NO_PATHS,
  org,
  initial,
  requestUrl,
  appKey,
  onRun,
}: QueryPanelProps) {
  const fields = useMemo(() => queryablePaths(def), [def]);
  const sortable = useMemo(() => sortablePaths(def), [def]);
  const projectable = useMemo(() => [...projectablePaths(def), ...referencePaths], [def, referencePaths]);

  const { whereText, barText, root, builderNote, onWhereText, onTreeChange } = useWhereText(initial.where);
  const [sortText, setSortText] = useState(() => initialSortText(initial.sort));
  const [paths, setPaths] = useState<string[]>(initial.paths);
  const [limitText, setLimitText] = useState(String(initial.limit));
  const [expanded, setExpanded] = useBuilderOpen();
  const [library, updateLibrary] = useQueryLibrary();
  const idBase = useId();
  const fieldPaths = useMemo(() => fields.map((f) => f.path), [fields]);
  const placeholder = useMemo(() => wherePlaceholder(fields), [fields]);
  const whereBar = useKeyCompletion<HTMLInputElement>({
    text: barText,
    onText: (text) => onWhereText(text, 'bar'),
    paths: fieldPaths,
    testId: 'qb-bar-where',
    combobox: true,
  });
  const sortBar = useKeyCompletion<HTMLInputElement>({
    text: sortText,
    onText: setSortText,
    paths: sortable,
    testId: 'qb-bar-sort',
    combobox: true,
  });

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
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  // Enter in a one-line bar runs it, as in Compass (once the completion list, if open, had its say).
  const runOnEnter =
    (first: (event: KeyboardEvent<HTMLInputElement>) => void) => (event: KeyboardEvent<HTMLInputElement>) => {
      first(event);
      if (event.defaultPrevented || event.key !== 'Enter' || event.ctrlKey || event.metaKey) return;
      if (event.shiftKey || event.altKey || event.nativeEvent.isComposing) return;
      event.preventDefault();
      run();
    };

  const barProblem = !whereCheck.ok ? whereCheck.problem : !sortCheck.ok ? sortCheck.problem : null;

  return (
    <section className="query-panel" aria-label="Query">
      <div className="query-bar" role="group" aria-label="Query bar">
        <div className="query-bar__field query-bar__field--where">
          <label className="option-label" htmlFor={`${idBase}-where`}>
            where
          </label>
          <input
            {...whereBar.props}
            id={`${idBase}-where`}
            className={whereCheck.ok ? 'input input--mono' : 'input input--mono input--invalid'}
            data-testid="qb-bar-where"
            aria-invalid={!whereCheck.ok || undefined}
            spellCheck={false}
            autoComplete="off"
            placeholder={placeholder}
            value={barText}
            onKeyDown={runOnEnter(whereBar.props.onKeyDown)}
          />
          {whereBar.list}
        </div>
        <div className="query-bar__field query-bar__field--sort">
          <label className="option-label" htmlFor={`${idBase}-sort`}>
            sort
          </label>
          <input
            {...sortBar.props}
            id={`${idBase}-sort`}
            className={sortCheck.ok ? 'input input--mono' : 'input input--mono input--invalid'}
            data-testid="qb-bar-sort"
            aria-invalid={!sortCheck.ok || undefined}
            spellCheck={false}
            autoComplete="off"
            placeholder="_id descending"
            value={sortText}
            onKeyDown={runOnEnter(sortBar.props.onKeyDown)}
          />
          {sortBar.list}
        </div>
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
        <ExpandedBuilder
          fields={fields}
          sortable={sortable}
          root={root}
          builderNote={builderNote}
          onTreeChange={onTreeChange}
          fieldPaths={fieldPaths}
          whereText={whereText}
          whereProblem={whereCheck.ok ? null : whereCheck.problem}
          onWhereText={(text) => onWhereText(text, 'json')}
          sortKeys={sortKeys}
          sortProblem={sortCheck.ok ? null : sortCheck.problem}
          onSortText={setSortText}
          limitText={limitText}
          limitValid={limitValid}
          onLimitText={setLimitText}
        />
      )}
    </section>
  );
}
