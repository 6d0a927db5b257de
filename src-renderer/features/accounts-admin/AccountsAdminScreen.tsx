import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ADMIN_PAGE_SIZE, adminAccountsQuery } from '../../api/account-admin';
import type { OrgClient } from '../../api/org-client';
import { rolesQuery } from '../../api/roles';
import { Pager } from '../../components/Pager';
import { ScreenHeader } from '../../components/ScreenHeader';
import type { NavigateOptions, Route } from '../../routing/route';
import { AccountDetail } from './AccountDetail';
import { AccountList } from './AccountList';
import type { AccountsAdminRoute } from './accounts-admin-route';
import { NewAccountForm } from './NewAccountForm';
import '../../styles/access.css';

interface AccountsAdminScreenProps {
  orgClient: OrgClient;
  route: AccountsAdminRoute;
  navigate: (route: Route, options?: NavigateOptions) => void;
}

/** Provision accounts and administer them: verify, lock/unlock, reset two-factor, roles, delete. */
export function AccountsAdminScreen({ orgClient, route, navigate }: AccountsAdminScreenProps) {
  const [creating, setCreating] = useState(false);
  const search = route.q ?? '';
  const list = useQuery(adminAccountsQuery(orgClient, search, route.skip));
  const roles = useQuery(rolesQuery(orgClient));

  return (
    <section className="screen" aria-labelledby="accounts-admin-title">
      <ScreenHeader
        title="Manage accounts"
        titleId="accounts-admin-title"
        description={
          <>
            Provision, verify, lock, set passwords and assign roles: <code>/{orgClient.org}/v2/accounts</code>
          </>
        }
        actions={
          <button
            type="button"
            className="button button--primary"
            data-testid="admin-account-new"
            onClick={() => {
              setCreating(true);
              navigate({ ...route, id: undefined });
            }}
          >
            New account
          </button>
        }
      />
      <div className="access-split">
        <div className="access-column">
          <div className="access-toolbar">
            <label className="inline-select">
              <span className="visually-hidden">Search</span>
              <input
                className="input"
                type="search"
                placeholder="Search by email, first or last name, or _id"
                data-testid="admin-accounts-search"
                value={search}
                onChange={(e) => navigate({ ...route, q: e.target.value || undefined, skip: 0 }, { replace: true })}
              />
            </label>
            <span className="note" role="status">
              {list.isFetching ? 'Loading…' : list.data ? `${list.data.items.length} shown` : ''}
            </span>
          </div>
          <AccountList
            list={list}
            roles={roles.data ?? []}
            selected={route.id}
            onSelect={(id) => {
              setCreating(false);
              navigate({ ...route, id });
            }}
          />
          <Pager
            testId="admin-accounts"
            small
            canPrevious={route.skip > 0}
            canNext={Boolean(list.data?.hasMore) && !list.isPlaceholderData}
            onPrevious={() => navigate({ ...route, skip: Math.max(0, route.skip - ADMIN_PAGE_SIZE) })}
            onNext={() => navigate({ ...route, skip: route.skip + ADMIN_PAGE_SIZE })}
          />
        </div>
        <div className="access-column">
          {creating ? (
            <NewAccountForm
              orgClient={orgClient}
              roles={roles.data ?? []}
              onCancel={() => setCreating(false)}
              onCreated={(account) => {
                setCreating(false);
                navigate({ ...route, id: account._id, q: undefined, skip: 0 });
              }}
            />
          ) : route.id ? (
            <AccountDetail
              key={route.id}
              orgClient={orgClient}
              id={route.id}
              roles={roles}
              onDeleted={() => navigate({ ...route, id: undefined })}
              onOpenTokenLab={() => navigate({ screen: 'tokens', pane: 'mint', account: route.id, org: route.org })}
            />
          ) : (
            <div className="empty-state" data-testid="account-detail-empty">
              <p className="empty-state__title">Pick an account</p>
              <p>Or create one with “New account”.</p>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
