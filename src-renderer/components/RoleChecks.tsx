import type { UseQueryResult } from '@tanstack/react-query';
import { faultOf } from '../api/api-error';
import type { Role } from '../api/roles';
import { FaultMessage } from './FaultMessage';

/** A multi-select of roles as checkboxes (keyboard: Tab between, Space to toggle). */
export function RoleChecks({
  legend,
  roles,
  selected,
  testPrefix,
  exclude,
  onChange,
}: {
  legend: string;
  roles: UseQueryResult<Role[]>;
  selected: readonly string[];
  testPrefix: string;
  exclude?: string;
  onChange: (next: string[]) => void;
}) {
  if (roles.isPending) return <p className="note">Loading roles…</p>;
  if (roles.isError) return <FaultMessage fault={faultOf(roles.error)} onRetry={() => void roles.refetch()} compact />;
  const shown = roles.data.filter((role) => role._id !== exclude);
  return (
    <fieldset className="check-list" data-testid={`${testPrefix}s`}>
      <legend className="panel__heading">{legend}</legend>
      {shown.length === 0 && <p className="note">No roles defined.</p>}
      {shown.map((role) => (
        <label key={role._id} className="check" title={role._id}>
          <input
            type="checkbox"
            data-testid={`${testPrefix}-${role.code ?? role._id}`}
            data-role-id={role._id}
            checked={selected.includes(role._id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...selected, role._id] : selected.filter((id) => id !== role._id))
            }
          />
          {role.name}
          {role.code && <code className="note">{role.code}</code>}
        </label>
      ))}
      {selected
        .filter((id) => !roles.data.some((role) => role._id === id))
        .map((id) => (
          <span key={id} className="note note--warn">
            Unknown role {id}
          </span>
        ))}
    </fieldset>
  );
}
