import { useQuery } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { countQuery } from '../../api/record-count';
import { ROLE_MEMBERS_SHOWN, roleMembersQuery, roleMembersWhere, type Role } from '../../api/roles';
import { QueryState } from '../../components/QueryState';
import { roleGrant } from './role-facts';

/**
 * What holding the role grants: its own chains as typed plus every chain of the roles it includes,
 * resolved the way the service resolves them (each role once, first-seen order) — and, for the
 * Administrator role or one that includes it, org administration whatever the chains.
 */
export function EffectiveScopes({
  roles,
  role,
  chains,
  include,
}: {
  roles: readonly Role[];
  role: Role | null;
  chains: readonly string[];
  include: readonly string[];
}) {
  const { scopes, orgAdminVia } = roleGrant(roles, role, chains, include);
  const self = role?._id ?? '__draft__';
  return (
    <div className="panel__section" data-testid="role-effective">
      <p className="panel__heading">Effective scopes</p>
      {orgAdminVia && (
        <p className="note note--ok" data-testid="role-effective-admin">
          Org administrator: full access to everything in the org, whatever its scopes
          {orgAdminVia._id === self ? '.' : ` (through ${orgAdminVia.name}).`}
        </p>
      )}
      {scopes.length === 0 ? (
        !orgAdminVia && <p className="note">None: holding this role grants nothing.</p>
      ) : (
        <ul className="effective-scopes">
          {scopes.map(({ chain, role: from }) => (
            <li key={chain} data-testid="role-effective-item" data-from={from._id === self ? 'self' : from._id}>
              <code>{chain}</code>
              {from._id !== self && <span className="note"> from {from.name}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const COUNT = new Intl.NumberFormat('en-US');

/** The accounts that hold the role directly: the first ones by email, and how many there are. */
export function RoleMembers({ orgClient, role }: { orgClient: OrgClient; role: Role }) {
  const members = useQuery(roleMembersQuery(orgClient, role._id));
  // Counted only when the list is full: a shorter list is the whole of it.
  const full = members.data?.hasMore === true;
  const total = useQuery({ ...countQuery(orgClient, 'accounts', roleMembersWhere(role._id)), enabled: full });
  const browseHref = `#/browse?c=accounts&where=${encodeURIComponent(JSON.stringify(roleMembersWhere(role._id)))}&org=${encodeURIComponent(orgClient.org)}`;
  return (
    <div className="panel__section" data-testid="role-members">
      <p className="panel__heading">
        Members
        {members.data && (
          <span className="note" data-testid="role-members-total">
            {' '}
            {full
              ? total.data !== undefined
                ? `${ROLE_MEMBERS_SHOWN} of ${COUNT.format(total.data)} shown`
                : `first ${ROLE_MEMBERS_SHOWN} shown, counting…`
              : `${members.data.items.length}`}
          </span>
        )}
      </p>
      <QueryState
        query={members}
        loading="Loading members…"
        compact
        isEmpty={(page) => page.items.length === 0}
        empty={<p className="note">No account holds this role directly.</p>}
        emptyTestId="role-members-empty"
      >
        {(page) => (
          <ul className="effective-scopes">
            {page.items.map((account) => (
              <li key={account._id} data-testid="role-member">
                {account.email}
                {account.name?.first || account.name?.last ? (
                  <span className="note"> {[account.name?.first, account.name?.last].filter(Boolean).join(' ')}</span>
                ) : null}
              </li>
            ))}
            {page.hasMore && (
              <li className="note">
                <a href={browseHref} data-testid="role-members-browse">
                  All {total.data !== undefined ? COUNT.format(total.data) : ''} members in Browse
                </a>
              </li>
            )}
          </ul>
        )}
      </QueryState>
    </div>
  );
}
