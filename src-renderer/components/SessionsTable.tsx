import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../api/api-error';
import { appsQuery } from '../api/apps';
import type { OrgClient } from '../api/org-client';
import { endSession, outboxKeys, sessionAccountsQuery, sessionsQuery, type LiveSession } from '../api/outbox';
import { FaultMessage } from './FaultMessage';
import { QueryState } from './QueryState';
import { UtcTime } from './UtcTime';

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
 * the viewer's own session is marked, and any can be ended (after a confirmation).
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
            <table className={compact ? 'grid grid--fit' : 'grid'} data-testid={`${testId}-table`}>
              <thead>
                <tr>
                  {account === undefined && <th scope="col">account</th>}
                  {app === undefined && <th scope="col">app</th>}
                  <th scope="col">started</th>
                  <th scope="col">last seen</th>
                  <th scope="col">IP</th>
                  <th scope="col">user agent</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
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
              </tbody>
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
  return (
    <tr
      data-testid="session-row"
      data-account={session.account}
      data-id={session.id}
      data-current={session.current || undefined}
    >
      {props.showAccount && (
        <td title={`${session.account} · session ${session.id}`}>
          {props.email ?? <span className="grid__id">{session.account}</span>}
          {session.current && <OwnBadge />}
        </td>
      )}
      {props.appLabel !== undefined && <td>{props.appLabel}</td>}
      <td>
        <UtcTime iso={session.created} />
        {!props.showAccount && session.current && <OwnBadge />}
      </td>
      <td>
        <UtcTime iso={session.lastSeen} />
      </td>
      <td data-testid="session-ip">{session.ip ?? '—'}</td>
      <td className="grid__wrap" data-testid="session-ua" title={session.userAgent ?? undefined}>
        {session.userAgent ?? '—'}
      </td>
      <td>
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
