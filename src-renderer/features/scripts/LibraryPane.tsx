import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { faultOf } from '../../api/api-error';
import type { ScriptRecord } from '../../api/scripts';
import { FaultMessage } from '../../components/FaultMessage';
import type { RunEntry } from './history';
import { NEW_SCRIPT } from './script-drafts';

interface LibraryPaneProps {
  library: UseQueryResult<ScriptRecord[]>;
  /** The open library script, or undefined for the new one. */
  openId: string | undefined;
  /** Ids (and `NEW_SCRIPT`) with unsaved drafts. */
  drafts: ReadonlySet<string>;
  runs: RunEntry[];
  shownRunId: number | undefined;
  onNew: () => void;
  onOpen: (id: string | undefined) => void;
  onOpenRun: (run: RunEntry) => void;
  /** What scripts can require and the routes libraries register (ScriptApiPanel, issue 40). */
  api?: ReactNode;
}

/** The side pane: the script library (unsaved drafts marked) and this session's runs. */
export function LibraryPane({
  library,
  openId,
  drafts,
  runs,
  shownRunId,
  onNew,
  onOpen,
  onOpenRun,
  api,
}: LibraryPaneProps) {
  const newDraft = drafts.has(NEW_SCRIPT);
  return (
    <aside className="scripts__side" aria-label="Script library and runs">
      <div className="scripts__side-head">
        <h2 className="pane-title">Library</h2>
        <button
          type="button"
          className="button button--secondary button--small"
          data-testid="script-new"
          onClick={onNew}
        >
          New
        </button>
      </div>
      {library.isPending && <p className="keys-note">Loading scripts…</p>}
      {library.isError && (
        <FaultMessage fault={faultOf(library.error)} compact onRetry={() => void library.refetch()} />
      )}
      {(newDraft || openId === undefined) && (
        <ul className="scripts__list">
          <li>
            <button
              type="button"
              className={openId === undefined ? 'scripts__item scripts__item--on' : 'scripts__item'}
              aria-current={openId === undefined ? 'true' : undefined}
              data-testid="library-new-item"
              data-draft={newDraft || undefined}
              onClick={() => onOpen(undefined)}
            >
              <span className="scripts__item-label">
                New script
                {newDraft && <DraftMark />}
              </span>
              <span className="script-type">not saved yet</span>
            </button>
          </li>
        </ul>
      )}
      {library.data?.length === 0 && (
        <p className="keys-note" data-testid="library-empty">
          No saved scripts yet. Save the one in the editor to start the library.
        </p>
      )}
      {library.data && library.data.length > 0 && (
        <ul className="scripts__list" data-testid="library">
          {library.data.map((s) => (
            <li key={s._id}>
              <button
                type="button"
                className={s._id === openId ? 'scripts__item scripts__item--on' : 'scripts__item'}
                aria-current={s._id === openId ? 'true' : undefined}
                data-testid="library-item"
                data-name={s.name}
                data-draft={drafts.has(s._id) || undefined}
                onClick={() => onOpen(s._id)}
              >
                <span className="scripts__item-label">
                  {s.label ?? s.name}
                  {drafts.has(s._id) && <DraftMark />}
                </span>
                <span className={`script-type script-type--${s.type}`}>
                  {s.type}
                  {s.type === 'route' && s.configuration?.path ? ` /${s.configuration.path}` : ''}
                  {s.type === 'trigger' ? ` ${s.configuration?.event ?? ''} ${s.configuration?.object ?? ''}` : ''}
                  {s.type === 'job' && s.configuration?.cron ? ` ${s.configuration.cron}` : ''}
                  {s.active === false ? ' · inactive' : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {api}
      <h2 className="pane-title scripts__runs-title">Runs</h2>
      {runs.length === 0 && <p className="keys-note">No runs in this session.</p>}
      {runs.length > 0 && (
        <ol className="scripts__list" data-testid="run-history">
          {runs.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                className={r.id === shownRunId ? 'scripts__item scripts__item--on' : 'scripts__item'}
                data-testid="history-item"
                data-state={r.state}
                title="Open this run: its script, arguments and output"
                onClick={() => onOpenRun(r)}
              >
                <span className="scripts__item-label">
                  #{r.id} · {new Date(r.startedAt).toLocaleTimeString()}
                </span>
                <span className={`run-badge run-badge--${r.state}`}>{r.state}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}

/** "Unsaved draft" beside a script's name: a dot, and words for screen readers and on hover. */
function DraftMark() {
  return (
    <span className="draft-mark" title="Unsaved changes, kept as a draft in this browser" data-testid="draft-mark">
      <span aria-hidden="true"> ●</span>
      <span className="sr-only"> (unsaved changes)</span>
    </span>
  );
}
