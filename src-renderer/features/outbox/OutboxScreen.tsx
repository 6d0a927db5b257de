import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { appsQuery } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import {
  endSession,
  outboxKeys,
  outboxPageQuery,
  sessionAccountsQuery,
  sessionsQuery,
  type LiveSession,
  type OutboxMessage,
} from '../../api/outbox';
import { FaultMessage } from '../../components/FaultMessage';
import { Pager } from '../../components/Pager';
import type { Route } from '../../routing/route';
import type { OutboxRoute } from './outbox-route';
import '../../styles/keys.css';
import { OUTBOX_PAGE_SIZES, isOutboxPageSize, nextOutboxPage, previousOutboxPage } from './outbox-route';

interface OutboxScreenProps {
  orgClient: OrgClient;
  route: OutboxRoute;
  navigate: (route: Route) => void;
}

const KIND_WORDS: Record<string, string> = {
  verification: 'verification',
  passwordReset: 'password reset',
  locationCode: 'new-location code',
};

/** The local outbox (decisions.md §5), newest first, and the org's live sessions. */
export function OutboxScreen({ orgClient, route, navigate }: OutboxScreenProps) {
  return (
    <section className="screen" aria-labelledby="outbox-title">
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="outbox-title">
            Outbox &amp; sessions
          </h1>
          <p className="screen__subtitle">
            Offline, emails and codes the service would send are kept here: <code>GET /{orgClient.org}/v2/outbox</code>
          </p>
        </div>
      </div>
      <div className="outbox-layout">
        <Outbox orgClient={orgClient} route={route} navigate={navigate} />
        <Sessions orgClient={orgClient} />
      </div>
    </section>
  );
}

function Outbox({ orgClient, route, navigate }: OutboxScreenProps) {
  const page = useQuery(outboxPageQuery(orgClient, route.skip, route.limit));
  const settled = page.isSuccess && !page.isPlaceholderData;
  const count = page.data?.items.length ?? 0;
  return (
    <section aria-labelledby="messages-title" data-testid="outbox">
      <div className="keys-section__head">
        <h2 className="keys-section__title" id="messages-title">
          Messages
        </h2>
        <button
          type="button"
          className="button button--secondary button--small"
          data-testid="outbox-refresh"
          onClick={() => void page.refetch()}
          disabled={page.isFetching}
        >
          {page.isFetching ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      <div className="outbox-scroll">
        {page.isPending && (
          <p className="status-line" role="status">
            <span className="spinner" aria-hidden="true" /> Loading the outbox…
          </p>
        )}
        {page.isError && <FaultMessage fault={faultOf(page.error)} onRetry={() => void page.refetch()} />}
        {page.data && page.data.items.length === 0 && (
          <div className="empty-state" data-testid="outbox-empty">
            <p className="empty-state__title">{route.skip > 0 ? 'No more messages.' : 'The outbox is empty.'}</p>
            <p>Verification codes, new-location codes and password-reset links appear here.</p>
          </div>
        )}
        {page.data && page.data.items.length > 0 && (
          <ol className="messages" style={page.isPlaceholderData ? { opacity: 0.55 } : undefined}>
            {page.data.items.map((m) => (
              <Message key={m._id} message={m} />
            ))}
          </ol>
        )}
      </div>
      <Pager
        testId="outbox"
        label="Outbox paging"
        range={settled && count > 0 ? `Messages ${route.skip + 1}–${route.skip + count}, newest first` : '\u00a0'}
        pageSize={{
          value: route.limit,
          options: OUTBOX_PAGE_SIZES,
          label: 'Per page',
          onChange: (limit) =>
            isOutboxPageSize(limit) && navigate({ ...route, limit, skip: Math.floor(route.skip / limit) * limit }),
        }}
        canPrevious={route.skip > 0 && !page.isPlaceholderData}
        canNext={settled && page.data.hasMore}
        onPrevious={() => navigate({ ...route, ...previousOutboxPage(route) })}
        onNext={() => navigate({ ...route, ...nextOutboxPage(route) })}
        previousLabel="‹ Newer"
        nextLabel="Older ›"
      />
    </section>
  );
}

function Message({ message }: { message: OutboxMessage }) {
  return (
    <li className="message" data-testid="outbox-message" data-kind={message.kind}>
      <div className="message__head">
        <span className="badge badge--muted">{KIND_WORDS[message.kind] ?? message.kind}</span>
        <span className="message__subject">{message.subject}</span>
        <time className="message__time" dateTime={message.created} title={message.created}>
          {new Date(message.created).toLocaleString()}
        </time>
      </div>
      <p className="keys-note">
        To <span data-testid="outbox-recipient">{message.recipient}</span>
      </p>
      <p className="message__body" data-testid="outbox-body">
        {message.body}
      </p>
    </li>
  );
}

function Sessions({ orgClient }: { orgClient: OrgClient }) {
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery(orgClient));
  const apps = useQuery(appsQuery(orgClient));
  const ids = [...new Set(sessions.data?.map((s) => s.account) ?? [])].sort();
  const accounts = useQuery(sessionAccountsQuery(orgClient, ids));
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
    <section aria-labelledby="sessions-title" data-testid="sessions">
      <div className="keys-section__head">
        <h2 className="keys-section__title" id="sessions-title">
          Active sessions
        </h2>
        <button
          type="button"
          className="button button--secondary button--small"
          data-testid="sessions-refresh"
          onClick={() => void sessions.refetch()}
          disabled={sessions.isFetching}
        >
          {sessions.isFetching ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      <p className="keys-note">
        Ending a session signs that client out at its next request. Ending your own signs this console out.
      </p>
      {sessions.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Loading sessions…
        </p>
      )}
      {sessions.isError && <FaultMessage fault={faultOf(sessions.error)} onRetry={() => void sessions.refetch()} />}
      {end.isError && <FaultMessage fault={faultOf(end.error)} compact />}
      {sessions.data?.length === 0 && (
        <p className="empty-state" data-testid="sessions-empty">
          No live sessions.
        </p>
      )}
      {sessions.data && sessions.data.length > 0 && (
        <div className="grid-frame outbox-scroll">
          <table className="grid" data-testid="sessions-table">
            <thead>
              <tr>
                <th scope="col">account</th>
                <th scope="col">app</th>
                <th scope="col">last seen</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((s) => (
                <SessionRow
                  key={s.id}
                  session={s}
                  email={accounts.data?.get(s.account)?.email}
                  appLabel={appLabel(s.app)}
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
      )}
    </section>
  );
}

function SessionRow(props: {
  session: LiveSession;
  email: string | undefined;
  appLabel: string;
  confirming: boolean;
  busy: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onEnd: () => void;
}) {
  const { session } = props;
  return (
    <tr data-testid="session-row" data-account={session.account} data-id={session.id}>
      <td title={`${session.account} · session ${session.id}`}>
        {props.email ?? <span className="grid__id">{session.account}</span>}
      </td>
      <td>{props.appLabel}</td>
      <td title={`started ${new Date(session.created).toLocaleString()}`}>
        {new Date(session.lastSeen).toLocaleTimeString()}
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
              End
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
