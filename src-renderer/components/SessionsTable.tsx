import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../api/api-error';
import { appsQuery } from '../api/apps';
import type { OrgClient } from '../api/org-client';
import { endSession, outboxKeys, sessionAccountsQuery, sessionsQuery, type LiveSession } from '../api/outbox';
import { FaultMessage } from './FaultMessage';
import { QueryState } from './QueryState';
import { utcParts } from './session-time';
import { UtcTime } from './UtcTime';
import { formatLocal } from './utc-time';

interface SessionsTableProps {
  orgClient: OrgClient;
  /** Only the sessions of one app or one account (the Applications and Accounts screens). */
  app?: string;
  account?: string;
  /** Test id of the table and prefix of its parts. */
  testId?: string;
  /** In a narrow panel (an account's detail): cells wrap instead of widening the table. */
  compact?: boolean;
}

/**
 * Live sessions: who, through which app, started, last seen, from where and with what browser;
 * the viewer's own session is marked, and any can be ended (after a confirmation). Each session is a
 * two-row group, the user agent on its second row (two lines at most, the whole on hover), so the
 * table fits a narrow panel and the action column stays in view.
 */
export function SessionsTable({ orgClient, app, account, testId = 'sessions', compact = false }: SessionsTableProps) {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery(orgClient));
  const apps = useQuery(appsQuery(orgClient));
  const shown = (sessions.data ?? []).filter(
    (s) => (app === undefined || s.app === app) && (account === undefined || s.account === account),
  );
  const ids = [...new Set(shown.map((s) => s.account))].sort();
  const accounts = useQuery(sessionAccountsQuery(orgClient, account === undefined ? ids : []));
  const [confirm, setConfirm] = useState<string | null>(null);
  const end = useMutation({
    mutationFn: (id: string) => endSession(orgClient, id),
    onSettled: () => {
      setConfirm(null);
      return queryClient.invalidateQueries({ queryKey: outboxKeys.sessions(orgClient.org) });
    },
  });
  const appLabel = (key: string) => apps.data?.find((a) => a.key === key)?.label ?? key;
  return (
    <QueryState
      query={sessions}
      loading="Loading sessions…"
      empty={<p>No live sessions.</p>}
      isEmpty={() => shown.length === 0}
      emptyTestId={`${testId}-empty`}
    >
      {() => (
        <>
          {end.isError && <FaultMessage fault={faultOf(end.error)} compact />}
          <div className="grid-frame outbox-scroll">
            <table className={compact ? 'grid grid--fit sessions' : 'grid sessions'} data-testid={`${testId}-table`}>
              <thead>
                <tr>
                  {account === undefined && <th scope="col">account</th>}
                  {app === undefined && <th scope="col">app</th>}
                  <th scope="col">started</th>
                  <th scope="col">last seen</th>
                  <th scope="col">IP</th>
                  <th scope="col" className="sessions__action">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              {shown.map((s) => (
                <SessionRow
                  key={s.id}
                  session={s}
                  email={accounts.data?.get(s.account)?.email}
                  appLabel={app === undefined ? appLabel(s.app) : undefined}
                  showAccount={account === undefined}
                  confirming={confirm === s.id}
                  busy={end.isPending}
                  onAsk={() => setConfirm(s.id)}
                  onCancel={() => setConfirm(null)}
                  onEnd={() => end.mutate(s.id)}
                />
              ))}
            </table>
          </div>
        </>
      )}
    </QueryState>
  );
}

function SessionRow(props: {
  session: LiveSession;
  email: string | undefined;
  appLabel: string | undefined;
  showAccount: boolean;
  confirming: boolean;
  busy: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onEnd: () => void;
}) {
  const { session } = props;
  // account, app, started, last seen, IP: the columns the user-agent row spans.
  const spanned = 3 + (props.showAccount ? 1 : 0) + (props.appLabel !== undefined ? 1 : 0);
  return (
    <tbody
      className="sessions__session"
      data-testid="session-row"
      data-account={session.account}
      data-id={session.id}
      data-current={session.current || undefined}
    >
      <tr>
        {props.showAccount && (
          <td title={`${session.account} · session ${session.id}`}>
            {props.email ?? <span className="grid__id">{session.account}</span>}
            {session.current && <OwnBadge />}
          </td>
        )}
        {props.appLabel !== undefined && <td>{props.appLabel}</td>}
        <td>
          <SessionTime iso={session.created} />
          {!props.showAccount && session.current && <OwnBadge />}
        </td>
        <td>
          <SessionTime iso={session.lastSeen} />
        </td>
        <td data-testid="session-ip">{session.ip ?? '—'}</td>
        <td className="sessions__action" rowSpan={2}>
          {props.confirming ? (
            <span className="lab__row">
              <button type="button" className="button button--ghost button--small" onClick={props.onCancel}>
                Keep
              </button>
              <button
                type="button"
                className="button button--danger button--small"
                data-testid="session-end-confirm"
                disabled={props.busy}
                onClick={props.onEnd}
              >
                {session.current ? 'End and sign out' : 'End'}
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="button button--ghost button--small"
              data-testid="session-end"
              aria-label={`End session of ${props.email ?? session.account}`}
              onClick={props.onAsk}
            >
              End…
            </button>
          )}
        </td>
      </tr>
      <tr className="sessions__agent">
        <td colSpan={spanned}>
          <span
            className="sessions__clamp"
            data-testid="session-ua"
            title={session.userAgent ? `User agent: ${session.userAgent}` : undefined}
          >
            {session.userAgent ?? 'no user agent'}
          </span>
        </td>
      </tr>
    </tbody>
  );
}

/** A time as UtcTime prints it, breaking only between the date and the time of day. */
function SessionTime({ iso }: { iso: string }) {
  const parts = utcParts(iso);
  if (!parts) return <UtcTime iso={iso} />;
  return (
    <time dateTime={iso} title={formatLocal(iso)}>
      <span className="sessions__nowrap">{parts.date}</span> <span className="sessions__nowrap">{parts.time}</span>
    </time>
  );
}

function OwnBadge() {
  return (
    <span className="badge badge--muted" data-testid="session-own" title="The session this console is using">
      {' '}
      you
    </span>
  );
}
