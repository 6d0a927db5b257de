import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { logsQuery, type LogEntry } from '../../api/logs';
import { QueryState } from '../../components/QueryState';
import { Pager } from '../../components/Pager';
import { ScreenHeader } from '../../components/ScreenHeader';
import { UtcTime } from '../../components/UtcTime';
import type { Route } from '../../routing/route';
import { LOG_OUTCOMES, LOG_TYPES, LOGS_PAGE, logsWhere, type LogsRoute, type LogsState } from './logs-route';
import '../../styles/logs.css';

interface LogsScreenProps {
  orgClient: OrgClient;
  route: LogsRoute;
  navigate: (route: Route) => void;
}

const OBJECT_ID = /^[0-9a-f]{24}$/;

/** Every script run's log entry (issue 41), newest first; filters in the URL, a live tail on demand. */
export function LogsScreen({ orgClient, route, navigate }: LogsScreenProps) {
  const page = useQuery(
    logsQuery(orgClient, { where: logsWhere(route), skip: route.skip, limit: LOGS_PAGE }, route.live),
  );
  const set = (change: Partial<LogsState>) => {
    const next: LogsRoute = { ...route, ...change, skip: change.skip ?? 0 };
    for (const key of ['type', 'outcome', 'script', 'principal'] as const)
      if (next[key] === undefined) delete next[key];
    navigate(next);
  };
  const count = page.data?.items.length ?? 0;
  return (
    <section className="screen" aria-labelledby="logs-title">
      <ScreenHeader
        title="Logs"
        titleId="logs-title"
        description={
          <>
            Every script run — runner, route, trigger, job: <code>GET /{orgClient.org}/v2/logs</code>
          </>
        }
      />
      <form className="logs-filters" aria-label="Filter the logs" onSubmit={(e) => e.preventDefault()}>
        <label className="field">
          <span className="field__label">Type</span>
          <select
            className="select"
            data-testid="logs-type"
            value={route.type ?? ''}
            onChange={(e) => set({ type: (e.target.value || undefined) as LogsState['type'] })}
          >
            <option value="">Any</option>
            {LOG_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Outcome</span>
          <select
            className="select"
            data-testid="logs-outcome"
            value={route.outcome ?? ''}
            onChange={(e) => set({ outcome: (e.target.value || undefined) as LogsState['outcome'] })}
          >
            <option value="">Any</option>
            {LOG_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o === 'error' ? 'fault' : 'ok'}
              </option>
            ))}
          </select>
        </label>
        <IdFilter label="Script _id" testId="logs-script" value={route.script} onChange={(script) => set({ script })} />
        <IdFilter
          label="Principal _id"
          testId="logs-principal"
          value={route.principal}
          onChange={(principal) => set({ principal })}
        />
        <label className="logs-live">
          <input
            type="checkbox"
            data-testid="logs-live"
            checked={route.live}
            onChange={(e) => navigate({ ...route, live: e.target.checked, skip: 0 })}
          />
          Live tail (every 2 s)
        </label>
      </form>
      <div className="logs-scroll">
        <QueryState
          query={page}
          loading="Loading the logs…"
          isEmpty={(data) => data.items.length === 0}
          emptyTestId="logs-empty"
          empty={<p className="empty-state__title">No script run matches.</p>}
        >
          {(data) => (
            <ol className="log-list" data-testid="logs-list">
              {data.items.map((entry) => (
                <LogRow key={entry._id} entry={entry} route={route} navigate={navigate} />
              ))}
            </ol>
          )}
        </QueryState>
      </div>
      <Pager
        testId="logs"
        label="Logs paging"
        range={count > 0 ? `Runs ${route.skip + 1}–${route.skip + count}, newest first` : '\u00a0'}
        canPrevious={route.skip > 0}
        canNext={page.data?.hasMore === true}
        onPrevious={() => set({ skip: Math.max(0, route.skip - LOGS_PAGE) })}
        onNext={() => set({ skip: route.skip + LOGS_PAGE })}
        previousLabel="‹ Newer"
        nextLabel="Older ›"
      />
    </section>
  );
}

function IdFilter(props: { label: string; testId: string; value?: string; onChange: (id?: string) => void }) {
  const [text, setText] = useState(props.value ?? '');
  const valid = text === '' || OBJECT_ID.test(text.trim().toLowerCase());
  return (
    <label className={valid ? 'field' : 'field field--invalid'}>
      <span className="field__label">{props.label}</span>
      <input
        className="input input--mono"
        data-testid={props.testId}
        value={text}
        placeholder="any"
        aria-invalid={!valid}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => valid && props.onChange(text.trim() === '' ? undefined : text.trim().toLowerCase())}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && valid) props.onChange(text.trim() === '' ? undefined : text.trim().toLowerCase());
        }}
      />
    </label>
  );
}

function LogRow({ entry, route, navigate }: { entry: LogEntry; route: LogsRoute; navigate: (route: Route) => void }) {
  const failed = entry.lvl === 'error';
  const line = entry.trc?.[0]?.line;
  const what = entry.dat?.event ? `${entry.dat.event} on ${entry.dat.object ?? '?'}` : (entry.dat?.path ?? '');
  return (
    <li
      className={failed ? 'log-entry log-entry--fault' : 'log-entry'}
      data-testid="log-entry"
      data-outcome={entry.lvl}
    >
      <details>
        <summary className="log-entry__head">
          <span className={failed ? 'badge badge--warn' : 'badge badge--ok'}>{failed ? 'fault' : 'ok'}</span>
          <span className="badge badge--muted">{entry.stp}</span>
          <span className="log-entry__label">{entry.label ?? (entry.stp === 'runner' ? 'ad-hoc run' : entry.sid)}</span>
          <span className="log-entry__what">{failed ? entry.err?.errCode : what}</span>
          <span className="log-entry__time">
            {entry.beg && <UtcTime iso={entry.beg} />} · {entry.ms ?? 0} ms
          </span>
        </summary>
        <div className="log-entry__body">
          {failed && (
            <p className="log-entry__fault" data-testid="log-fault">
              {entry.err?.reason ?? entry.err?.message}
              {entry.sid && line !== undefined && (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  data-testid="log-open-script"
                  onClick={() => navigate({ screen: 'scripts', id: entry.sid, line, org: route.org })}
                >
                  Open the script at line {line}
                </button>
              )}
            </p>
          )}
          {!failed && entry.dat?.result !== undefined && (
            <p className="keys-note">
              Result <code>{entry.dat.result}</code>
            </p>
          )}
          {entry.console && entry.console.length > 0 && (
            <pre className="log-entry__console" data-testid="log-console">
              {entry.console.map((c) => `${c.level.padEnd(5)} ${c.message}`).join('\n')}
              {entry.truncated ? '\n… (cut)' : ''}
            </pre>
          )}
          <p className="keys-note">
            {entry.pid ? (
              <button
                type="button"
                className="button button--link"
                onClick={() => navigate({ ...route, principal: entry.pid, skip: 0 })}
              >
                as {entry.pid}
              </button>
            ) : (
              'anonymously'
            )}
            {entry.sid && (
              <>
                {' · '}
                <button
                  type="button"
                  className="button button--link"
                  onClick={() => navigate({ ...route, script: entry.sid, skip: 0 })}
                >
                  only this script
                </button>
              </>
            )}
          </p>
        </div>
      </details>
    </li>
  );
}
