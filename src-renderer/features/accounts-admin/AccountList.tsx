import type { UseQueryResult } from '@tanstack/react-query';
import type { AdminAccount } from '../../api/account-admin';
import { faultOf } from '../../api/api-error';
import type { Role } from '../../api/roles';
import type { ListPage } from '../../api/types';
import { FaultMessage } from '../../components/FaultMessage';

/** One page of accounts: email (opens the account), name, state and roles. */
export function AccountList({
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
        className={
          list.isPlaceholderData ? 'grid grid--stale access-grid admin-accounts' : 'grid access-grid admin-accounts'
        }
        data-testid="admin-accounts-list"
        aria-busy={list.isFetching}
      >
        {/* Fixed columns: email and name give way (ellipsis, full text in the title); the state
            badges and every role chip are shown whole, roles wrapping onto more lines. */}
        <colgroup>
          <col className="admin-accounts__email" />
          <col className="admin-accounts__name" />
          <col className="admin-accounts__state" />
          <col />
        </colgroup>
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
              <td title={account.email}>
                <button type="button" className="row-link" onClick={() => onSelect(account._id)}>
                  {account.email}
                </button>
              </td>
              <td title={[account.name?.first, account.name?.last].filter(Boolean).join(' ')}>
                {[account.name?.first, account.name?.last].filter(Boolean).join(' ') || '—'}
              </td>
              <td className="admin-accounts__wrap">
                <StateBadges account={account} />
              </td>
              <td className="admin-accounts__wrap">
                <span className="chips chips--wrap">
                  {(account.roles ?? []).map((id) => (
                    <span key={id} className="chip" title={id} data-testid="account-role">
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

/** The account's state and whether it is locked. */
export function StateBadges({ account }: { account: AdminAccount }) {
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
