import { useQuery } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { resolveRoleScopes, roleMembersQuery, type Role } from '../../api/roles';
import { QueryState } from '../../components/QueryState';

/**
 * What holding the role grants: its own chains as typed plus every chain of the roles it includes,
 * resolved the way the service resolves them (each role once, first-seen order).
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
  const draft: Role = {
    ...(role ?? { _id: '__draft__', object: 'role', name: 'this role' }),
    scopes: [...chains],
    include: [...include],
  };
  const others = roles.filter((r) => r._id !== draft._id);
  const { scopes } = resolveRoleScopes([draft, ...others], [draft._id]);
  return (
    <div className="panel__section" data-testid="role-effective">
      <p className="panel__title">Effective scopes</p>
      {scopes.length === 0 ? (
        <p className="note">None: holding this role grants nothing.</p>
      ) : (
        <ul className="effective-scopes">
          {scopes.map(({ chain, role: from }) => (
            <li key={chain} data-testid="role-effective-item" data-from={from._id === draft._id ? 'self' : from._id}>
              <code>{chain}</code>
              {from._id !== draft._id && <span className="note"> from {from.name}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The accounts that hold the role directly. */
export function RoleMembers({ orgClient, role }: { orgClient: OrgClient; role: Role }) {
  const members = useQuery(roleMembersQuery(orgClient, role._id));
  return (
    <div className="panel__section" data-testid="role-members">
      <p className="panel__title">Members</p>
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
            {page.hasMore && <li className="note">… and more (first 50 shown)</li>}
          </ul>
        )}
      </QueryState>
    </div>
  );
}
