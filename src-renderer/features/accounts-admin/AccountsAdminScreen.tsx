import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import {
  ADMIN_PAGE_SIZE,
  adminAccountQuery,
  adminAccountsQuery,
  useAccountAction,
  useDeleteAccount,
  usePatchAccount,
  type AdminAccount,
} from '../../api/account-admin';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { rolesQuery, type Role } from '../../api/roles';
import type { ListPage } from '../../api/types';
import { FaultMessage } from '../../components/FaultMessage';
import { RoleChecks } from '../../components/RoleChecks';
import { NewAccountForm } from './NewAccountForm';
import type { NavigateOptions, Route } from '../../routing/route';
import type { AccountsAdminRoute } from './accounts-admin-route';
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
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="accounts-admin-title">
            Manage accounts
          </h1>
          <p className="screen__subtitle">
            Provision, verify, lock and assign roles: <code>/{orgClient.org}/v2/accounts</code>
          </p>
        </div>
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
      </div>
      <div className="access-split">
        <div className="access-column">
          <div className="access-toolbar">
            <label className="inline-select">
              <span className="visually-hidden">Search</span>
              <input
                className="input"
                type="search"
                placeholder="Search by email prefix or _id"
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
          <div className="access-toolbar">
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={route.skip === 0}
              onClick={() => navigate({ ...route, skip: Math.max(0, route.skip - ADMIN_PAGE_SIZE) })}
            >
              Previous
            </button>
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={!list.data?.hasMore || list.isPlaceholderData}
              onClick={() => navigate({ ...route, skip: route.skip + ADMIN_PAGE_SIZE })}
            >
              Next
            </button>
          </div>
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

function AccountList({
  list,
  roles,
  selected,
  onSelect,
}: {
  list: UseQueryResult<ListPage<AdminAccount>>;
  roles: Role[];
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  const names = new Map(roles.map((role) => [role._id, role.name]));
  return (
    <div className="grid-frame">
      <table
        className={list.isPlaceholderData ? 'grid grid--stale access-grid' : 'grid access-grid'}
        data-testid="admin-accounts-list"
        aria-busy={list.isFetching}
      >
        <thead>
          <tr>
            <th scope="col">email</th>
            <th scope="col">name</th>
            <th scope="col">state</th>
            <th scope="col">roles</th>
          </tr>
        </thead>
        <tbody>
          {list.isPending && (
            <tr>
              <td colSpan={4} className="grid__status">
                <span className="spinner" aria-hidden="true" /> Loading accounts…
              </td>
            </tr>
          )}
          {list.isError && (
            <tr>
              <td colSpan={4} className="grid__status">
                <FaultMessage fault={faultOf(list.error)} onRetry={() => void list.refetch()} compact />
              </td>
            </tr>
          )}
          {list.data?.items.length === 0 && (
            <tr data-testid="admin-accounts-empty">
              <td colSpan={4} className="grid__status">
                No accounts match.
              </td>
            </tr>
          )}
          {list.data?.items.map((account) => (
            <tr
              key={account._id}
              data-testid="admin-account-row"
              data-account-id={account._id}
              aria-selected={account._id === selected}
            >
              <td>
                <button type="button" className="row-link" onClick={() => onSelect(account._id)}>
                  {account.email}
                </button>
              </td>
              <td>{[account.name?.first, account.name?.last].filter(Boolean).join(' ') || '—'}</td>
              <td>
                <StateBadges account={account} />
              </td>
              <td>
                <span className="chips">
                  {(account.roles ?? []).map((id) => (
                    <span key={id} className="chip" title={id}>
                      {names.get(id) ?? id.slice(-6)}
                    </span>
                  ))}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StateBadges({ account }: { account: AdminAccount }) {
  return (
    <span className="badges">
      <span className={`badge badge--${account.state === 'verified' ? 'ok' : 'muted'}`} data-testid="account-state">
        {account.state ?? '—'}
      </span>
      {account.locked === true && (
        <span className="badge badge--warn" data-testid="account-locked">
          locked
        </span>
      )}
    </span>
  );
}

function AccountDetail({
  orgClient,
  id,
  roles,
  onDeleted,
}: {
  orgClient: OrgClient;
  id: string;
  roles: UseQueryResult<Role[]>;
  onDeleted: () => void;
}) {
  const account = useQuery(adminAccountQuery(orgClient, id));
  const patch = usePatchAccount(orgClient);
  const action = useAccountAction(orgClient);
  const remove = useDeleteAccount(orgClient);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [roleDraft, setRoleDraft] = useState<string[] | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (account.isPending) {
    return (
      <p className="status-line" role="status">
        <span className="spinner" aria-hidden="true" /> Loading the account…
      </p>
    );
  }
  if (account.isError) return <FaultMessage fault={faultOf(account.error)} onRetry={() => void account.refetch()} />;
  const data = account.data;
  const held = roleDraft ?? data.roles ?? [];
  const rolesChanged = roleDraft !== null && [...roleDraft].sort().join() !== [...(data.roles ?? [])].sort().join();
  const busy = patch.isPending || action.isPending || remove.isPending;
  const after = (words: string) => ({
    onSuccess: () => {
      setDone(words);
      void account.refetch();
    },
  });

  return (
    <div className="panel" data-testid="account-detail" data-account-id={data._id}>
      <div>
        <p className="panel__title">{data.email}</p>
        <p className="note">
          <code>{data._id}</code>
        </p>
      </div>
      <dl className="facts">
        <dt>name</dt>
        <dd>{[data.name?.first, data.name?.last].filter(Boolean).join(' ') || '—'}</dd>
        <dt>state</dt>
        <dd>
          <StateBadges account={data} />
        </dd>
        <dt>created</dt>
        <dd>{data.created ?? '—'}</dd>
      </dl>
      <div className="panel__section">
        <p className="panel__heading">Actions</p>
        <div className="access-toolbar">
          {data.state !== 'verified' && (
            <button
              type="button"
              className="button button--secondary"
              data-testid="account-verify"
              disabled={busy}
              onClick={() => action.mutate({ id, action: 'verify' }, after('Verified.'))}
            >
              Verify
            </button>
          )}
          {data.locked === true ? (
            <button
              type="button"
              className="button button--secondary"
              data-testid="account-unlock"
              disabled={busy}
              onClick={() => action.mutate({ id, action: 'unlock' }, after('Unlocked.'))}
            >
              Unlock
            </button>
          ) : (
            <button
              type="button"
              className="button button--secondary"
              data-testid="account-lock"
              disabled={busy}
              onClick={() => patch.mutate({ id, patch: { locked: true } }, after('Locked.'))}
            >
              Lock
            </button>
          )}
          <button
            type="button"
            className="button button--secondary"
            data-testid="account-reset-2fa"
            disabled={busy}
            onClick={() =>
              action.mutate(
                { id, action: 'reset-two-factor' },
                after('Two-factor reset: known locations and the authenticator were cleared.'),
              )
            }
          >
            Reset two-factor
          </button>
        </div>
        {done && (
          <p className="note note--ok" role="status" data-testid="account-action-done">
            {done}
          </p>
        )}
        {patch.isError && <FaultMessage fault={faultOf(patch.error)} compact />}
        {action.isError && <FaultMessage fault={faultOf(action.error)} compact />}
      </div>
      <div className="panel__section">
        <RoleChecks
          legend="Roles"
          roles={roles}
          selected={held}
          testPrefix="account-role"
          onChange={(next) => {
            setDone(null);
            setRoleDraft(next);
          }}
        />
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary"
            data-testid="account-roles-save"
            disabled={!rolesChanged || busy}
            onClick={() =>
              patch.mutate(
                { id, patch: { roles: held } },
                {
                  onSuccess: () => {
                    setRoleDraft(null);
                    setDone('Roles saved.');
                    void account.refetch();
                  },
                },
              )
            }
          >
            {patch.isPending ? 'Saving…' : 'Save roles'}
          </button>
          {rolesChanged && (
            <button type="button" className="button button--ghost" onClick={() => setRoleDraft(null)}>
              Discard
            </button>
          )}
        </div>
      </div>
      <div className="panel__section">
        {confirmDelete ? (
          <div className="confirm" role="alertdialog" aria-label="Confirm deletion">
            Delete {data.email}? This cannot be undone.
            <button
              type="button"
              className="button button--danger button--small"
              data-testid="account-delete-confirm"
              disabled={busy}
              onClick={() => remove.mutate(id, { onSuccess: onDeleted })}
            >
              Delete
            </button>
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => setConfirmDelete(false)}
            >
              Cancel
            </button>
          </div>
        ) : (
          <button
            type="button"
            className="button button--ghost"
            data-testid="account-delete"
            onClick={() => setConfirmDelete(true)}
          >
            Delete account…
          </button>
        )}
        {remove.isError && <FaultMessage fault={faultOf(remove.error)} compact />}
      </div>
    </div>
  );
}
