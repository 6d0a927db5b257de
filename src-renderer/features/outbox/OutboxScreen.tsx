import { useQuery } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { outboxPageQuery, sessionsQuery, type OutboxMessage } from '../../api/outbox';
import { QueryState } from '../../components/QueryState';
import { Pager } from '../../components/Pager';
import { ScreenHeader } from '../../components/ScreenHeader';
import { SessionsTable } from '../../components/SessionsTable';
import { UtcTime } from '../../components/UtcTime';
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
  registrationAttempt: 'sign-up with a taken email',
};

/** The local outbox (docs/sessions.md), newest first, and the org's live sessions. */
export function OutboxScreen({ orgClient, route, navigate }: OutboxScreenProps) {
  return (
    <section className="screen" aria-labelledby="outbox-title">
      <ScreenHeader
        title={<>Outbox &amp; sessions</>}
        titleId="outbox-title"
        description={
          <>
            Offline, emails and codes the service would send are kept here: <code>GET /{orgClient.org}/v2/outbox</code>
          </>
        }
      />
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
        <QueryState
          query={page}
          loading="Loading the outbox…"
          isEmpty={(data) => data.items.length === 0}
          emptyTestId="outbox-empty"
          empty={
            <>
              <p className="empty-state__title">{route.skip > 0 ? 'No more messages.' : 'The outbox is empty.'}</p>
              <p>Verification codes, new-location codes and password-reset links appear here.</p>
            </>
          }
        >
          {(data) => (
            <ol className="messages" style={page.isPlaceholderData ? { opacity: 0.55 } : undefined}>
              {data.items.map((m) => (
                <Message key={m._id} message={m} />
              ))}
            </ol>
          )}
        </QueryState>
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
          <UtcTime iso={message.created} />
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
  const sessions = useQuery(sessionsQuery(orgClient));
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
        Ending a session signs that client out at its next request. Ending your own (marked “you”) signs this console
        out.
      </p>
      <SessionsTable orgClient={orgClient} />
    </section>
  );
}
