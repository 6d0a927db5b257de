import type { UseQueryResult } from '@tanstack/react-query';
import { faultOf } from '../../api/api-error';
import { resolveRoleScopes, type Role } from '../../api/roles';
import { FaultMessage } from '../../components/FaultMessage';
import type { decodeTokenScope } from './batch';
import type { ScopeTesterRoute } from './tester-route';

/** Where an effective chain came from, for the list under the source. */
export interface SourcedChain {
  chain: string;
  from: string;
}

/** The chains a request is decided against: typed ones plus the chosen roles', or a token's plus its roles'. */
export function sourceChains(
  route: ScopeTesterRoute,
  typed: string[],
  roles: Role[],
  decoded: ReturnType<typeof decodeTokenScope> | null,
  subjectRoles: string[],
): { chains: SourcedChain[]; notes: string[] } {
  const notes: string[] = [];
  if (route.source === 'chains') {
    const own = typed.map((chain) => ({ chain, from: 'typed' }));
    const fromRoles = resolveRoleScopes(roles, route.roles).scopes.map((entry) => ({
      chain: entry.chain,
      from: `role ${entry.role.name}`,
    }));
    return { chains: [...own, ...fromRoles], notes };
  }
  if (!decoded?.ok) return { chains: [], notes };
  const own = decoded.token.scopes.map((chain) => ({ chain, from: 'service/scp' }));
  const fromRoles = resolveRoleScopes(roles, [...decoded.token.roles, ...subjectRoles]).scopes.map((entry) => ({
    chain: entry.chain,
    from: `role ${entry.role.name}`,
  }));
  if (decoded.token.subject) notes.push("The subject's own roles are included, as the service does.");
  return { chains: [...own, ...fromRoles], notes };
}

/** The effective chains listed with where each came from. */
export function EffectiveChains({
  source,
  notes,
  roles,
}: {
  source: SourcedChain[];
  notes: string[];
  roles: UseQueryResult<Role[]>;
}) {
  return (
    <div className="panel__section" data-testid="tester-effective">
      <p className="panel__heading">Effective chains ({source.length})</p>
      {roles.isError && <FaultMessage fault={faultOf(roles.error)} onRetry={() => void roles.refetch()} compact />}
      {source.length === 0 ? (
        <p className="note" data-testid="tester-effective-empty">
          No chains: every request is denied.
        </p>
      ) : (
        <ul className="chain-list">
          {source.map((entry, index) => (
            <li key={`${index}-${entry.chain}`}>
              <code>{entry.chain}</code> <span className="note">— {entry.from}</span>
            </li>
          ))}
        </ul>
      )}
      {notes.map((note) => (
        <p key={note} className="note">
          {note}
        </p>
      ))}
    </div>
  );
}
