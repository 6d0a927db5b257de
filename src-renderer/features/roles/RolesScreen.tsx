import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { isBuiltinRole, rolesQuery } from '../../api/roles';
import { FaultMessage } from '../../components/FaultMessage';
import { ScreenHeader } from '../../components/ScreenHeader';
import type { Route } from '../../routing/route';
import { RoleEditor } from './RoleEditor';
import type { RolesRoute } from './roles-route';
import '../../styles/access.css';

interface RolesScreenProps {
  orgClient: OrgClient;
  route: RolesRoute;
  navigate: (route: Route) => void;
}

/** Roles: name, code, scope chains (validated as typed, by the service's parser) and included roles. */
export function RolesScreen({ orgClient, route, navigate }: RolesScreenProps) {
  const roles = useQuery(rolesQuery(orgClient));
  // The role just saved, so its editor (remounted under the new id) can say so.
  const [savedId, setSavedId] = useState<string | null>(null);
  const selected = route.id && route.id !== 'new' ? roles.data?.find((role) => role._id === route.id) : undefined;

  return (
    <section className="screen" aria-labelledby="roles-title">
      <ScreenHeader
        title="Roles"
        titleId="roles-title"
        description={
          <>
            Roles carry scope chains; accounts and tokens inherit them, including those of included roles:{' '}
            <code>/{orgClient.org}/v2/roles</code>
          </>
        }
        actions={
          <button
            type="button"
            className="button button--primary"
            data-testid="role-new"
            onClick={() => navigate({ ...route, id: 'new' })}
          >
            New role
          </button>
        }
      />
      {roles.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Loading roles…
        </p>
      )}
      {roles.isError && <FaultMessage fault={faultOf(roles.error)} onRetry={() => void roles.refetch()} />}
      {roles.data && (
        <div className="access-split access-split--roles">
          <ul className="schemas__list" data-testid="roles-list" aria-label="Roles">
            {roles.data.length === 0 && <li className="note">No roles yet.</li>}
            {roles.data.map((role) => (
              <li key={role._id}>
                <button
                  type="button"
                  className={role._id === route.id ? 'schemas__item schemas__item--on' : 'schemas__item'}
                  data-testid="role-item"
                  data-role-id={role._id}
                  aria-current={role._id === route.id ? 'true' : undefined}
                  onClick={() => navigate({ ...route, id: role._id })}
                >
                  <span title={role.name}>{role.name}</span>
                  {isBuiltinRole(role._id) ? (
                    <span className="badge badge--muted">built-in</span>
                  ) : (
                    <span className="badge badge--ok">
                      {role.scopes?.length === 1 ? '1 scope' : `${role.scopes?.length ?? 0} scopes`}
                    </span>
                  )}
                  <code>{role.code ?? role._id}</code>
                </button>
              </li>
            ))}
          </ul>
          <div className="access-column">
            {route.id === 'new' ? (
              <RoleEditor
                key="new"
                orgClient={orgClient}
                role={null}
                roles={roles}
                justSaved={false}
                onSaved={(role) => {
                  setSavedId(role._id);
                  navigate({ ...route, id: role._id });
                }}
                onDeleted={() => navigate({ ...route, id: undefined })}
              />
            ) : selected ? (
              <RoleEditor
                key={selected._id}
                orgClient={orgClient}
                role={selected}
                roles={roles}
                justSaved={savedId === selected._id}
                onSaved={(role) => {
                  setSavedId(role._id);
                  navigate({ ...route, id: role._id });
                }}
                onDeleted={() => navigate({ ...route, id: undefined })}
              />
            ) : route.id && roles.isFetching ? (
              <p className="status-line" role="status">
                <span className="spinner" aria-hidden="true" /> Loading the role…
              </p>
            ) : route.id ? (
              <FaultMessage
                fault={{
                  object: 'fault',
                  name: 'error',
                  code: 'kNotFound',
                  errCode: 'console.unknownRole',
                  status: 0,
                  message: `There is no role ${route.id}. Pick one from the list.`,
                }}
              />
            ) : (
              <div className="empty-state" data-testid="role-empty">
                <p className="empty-state__title">Pick a role to edit</p>
                <p>Or define a new one with “New role”.</p>
              </div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
