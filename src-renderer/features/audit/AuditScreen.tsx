import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { auditsQuery, type AuditEntry } from '../../api/logs';
import { QueryState } from '../../components/QueryState';
import { Pager } from '../../components/Pager';
import { ScreenHeader } from '../../components/ScreenHeader';
import { UtcTime } from '../../components/UtcTime';
import type { Route } from '../../routing/route';
import { AUDIT_PAGE, auditWhere, parseAuditParams, type AuditRoute, type AuditState } from './audit-route';
import '../../styles/logs.css';

interface AuditScreenProps {
  orgClient: OrgClient;
  route: AuditRoute;
  navigate: (route: Route) => void;
}

const FILTERS = [
  { key: 'actor', label: 'Actor _id', placeholder: 'any account' },
  { key: 'action', label: 'Action', placeholder: 'app or app.rotateSecret' },
  { key: 'target', label: 'Target', placeholder: 'an _id, key or name' },
  { key: 'from', label: 'From (UTC day)', placeholder: '2026-01-01' },
  { key: 'to', label: 'To (UTC day)', placeholder: '2026-01-31' },
] as const;

/** Who did what to which, when (issue 41): every administrative action, newest first. */
export function AuditScreen({ orgClient, route, navigate }: AuditScreenProps) {
  const page = useQuery(auditsQuery(orgClient, { where: auditWhere(route), skip: route.skip, limit: AUDIT_PAGE }));
  const set = (change: Partial<AuditState>) => {
    const next: AuditRoute = { ...route, ...change, skip: change.skip ?? 0 };
    for (const { key } of FILTERS) if (next[key] === undefined) delete next[key];
    navigate(next);
  };
  const count = page.data?.items.length ?? 0;
  return (
    <section className="screen" aria-labelledby="audit-title">
      <ScreenHeader
        title="Audit"
        titleId="audit-title"
        description={
          <>
            Administrative actions and who took them: <code>GET /{orgClient.org}/v2/audits</code>
          </>
        }
      />
      <form className="logs-filters" aria-label="Filter the audit trail" onSubmit={(e) => e.preventDefault()}>
        {FILTERS.map((f) => (
          <TextFilter
            key={f.key}
            name={f.key}
            label={f.label}
            placeholder={f.placeholder}
            value={route[f.key]}
            onChange={(value) => set({ [f.key]: value })}
          />
        ))}
      </form>
      <div className="logs-scroll">
        <QueryState
          query={page}
          loading="Loading the audit trail…"
          isEmpty={(data) => data.items.length === 0}
          emptyTestId="audit-empty"
          empty={<p className="empty-state__title">No entry matches.</p>}
        >
          {(data) => (
            <ol className="log-list" data-testid="audit-list">
              {data.items.map((entry) => (
                <AuditRow key={entry._id} entry={entry} route={route} navigate={navigate} />
              ))}
            </ol>
          )}
        </QueryState>
      </div>
      <Pager
        testId="audit"
        label="Audit paging"
        range={count > 0 ? `Entries ${route.skip + 1}–${route.skip + count}, newest first` : '\u00a0'}
        canPrevious={route.skip > 0}
        canNext={page.data?.hasMore === true}
        onPrevious={() => set({ skip: Math.max(0, route.skip - AUDIT_PAGE) })}
        onNext={() => set({ skip: route.skip + AUDIT_PAGE })}
        previousLabel="‹ Newer"
        nextLabel="Older ›"
      />
    </section>
  );
}

function TextFilter(props: {
  name: (typeof FILTERS)[number]['key'];
  label: string;
  placeholder: string;
  value?: string;
  onChange: (value?: string) => void;
}) {
  const [text, setText] = useState(props.value ?? '');
  // The same rules as the URL's (audit-route.ts): what the hash would drop is marked here.
  const valid =
    text.trim() === '' ||
    parseAuditParams(new URLSearchParams({ [props.name]: text.trim() }))[props.name] !== undefined;
  const apply = () => valid && props.onChange(text.trim() === '' ? undefined : text.trim());
  return (
    <label className={valid ? 'field' : 'field field--invalid'}>
      <span className="field__label">{props.label}</span>
      <input
        className="input input--mono"
        data-testid={`audit-${props.name}`}
        value={text}
        placeholder={props.placeholder}
        aria-invalid={!valid}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => e.key === 'Enter' && apply()}
      />
    </label>
  );
}

/** Where the console shows an entry's target, when it has a screen for it. */
function targetRoute(entry: AuditEntry, org: string | undefined): Route | undefined {
  const { object, _id } = entry.context ?? {};
  const withOrg = org ? { org } : {};
  if (!object || !_id) return undefined;
  switch (object) {
    case 'app':
      return { screen: 'apps', key: _id, tab: 'settings', ...withOrg };
    case 'script':
      return { screen: 'scripts', id: _id, ...withOrg };
    case 'role':
      return { screen: 'roles', id: _id, ...withOrg };
    case 'object':
      return { screen: 'schemas', name: _id, ...withOrg };
    case 'org':
    case 'session':
      return undefined;
    default: {
      const collection = object.endsWith('s') ? object : `${object}s`;
      const where = JSON.stringify({ _id });
      return {
        screen: 'browse',
        collection,
        where,
        paths: [],
        limit: 100,
        skip: 0,
        view: 'table',
        record: _id,
        ...withOrg,
      };
    }
  }
}

function AuditRow({
  entry,
  route,
  navigate,
}: {
  entry: AuditEntry;
  route: AuditRoute;
  navigate: (route: Route) => void;
}) {
  const actor = entry.actor ?? {};
  const how = actor.type === 'token' && actor.jti ? `token ${actor.jti}` : actor.type;
  const target = targetRoute(entry, route.org);
  return (
    <li className="log-entry" data-testid="audit-entry" data-action={`${entry.cat}.${entry.sub}`}>
      <div className="log-entry__head">
        <span className="badge badge--muted">
          {entry.cat} · {entry.sub}
        </span>
        <span className="log-entry__label">{entry.summary}</span>
        <span className="log-entry__time">{entry.created && <UtcTime iso={entry.created} />}</span>
      </div>
      <div className="log-entry__body">
        <p className="keys-note">
          By {actor.email ?? actor.account ?? (actor.type === 'cli' ? 'the command line' : 'the service')} ({how}
          {actor.script ? `, script ${actor.script}` : actor.scriptType ? `, ${actor.scriptType} script` : ''}
          {actor.app ? `, app ${actor.app}` : ''}
          {actor.address ? ` from ${actor.address}` : ''})
          {actor.account && (
            <button
              type="button"
              className="button button--link"
              onClick={() => navigate({ ...route, actor: actor.account, skip: 0 })}
            >
              only this actor
            </button>
          )}
          {target && (
            <button
              type="button"
              className="button button--link"
              data-testid="audit-open-target"
              onClick={() => navigate(target)}
            >
              open {entry.context?.object} {entry.context?.label ?? entry.context?._id}
            </button>
          )}
        </p>
        {entry.changes && entry.changes.length > 0 && (
          <p className="audit-changes">Changed: {entry.changes.join(', ')}</p>
        )}
      </div>
    </li>
  );
}
