import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { parseScopeChain } from '../../../src-shared/scopes';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import {
  isBuiltinRole,
  resolveRoleScopes,
  rolesQuery,
  useDeleteRole,
  useSaveRole,
  type Role,
  type RoleDraft,
} from '../../api/roles';
import { FaultMessage } from '../../components/FaultMessage';
import type { Route } from '../../routing/route';
import type { RolesRoute } from './roles-route';
import { RoleChecks } from '../../components/RoleChecks';
import { ChainChecks } from '../../components/ChainMark';
import { splitChains } from '../../components/chain-segments';
import '../../styles/access.css';

interface RolesScreenProps {
  orgClient: OrgClient;
  route: RolesRoute;
  navigate: (route: Route) => void;
}

const CODE = /^[a-z][a-z0-9_-]{0,99}$/;

/** Roles: name, code, scope chains (validated as typed, by the service's parser) and included roles. */
export function RolesScreen({ orgClient, route, navigate }: RolesScreenProps) {
  const roles = useQuery(rolesQuery(orgClient));
  // The role just saved, so its editor (remounted under the new id) can say so.
  const [savedId, setSavedId] = useState<string | null>(null);
  const selected = route.id && route.id !== 'new' ? roles.data?.find((role) => role._id === route.id) : undefined;

  return (
    <section className="screen" aria-labelledby="roles-title">
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="roles-title">
            Roles
          </h1>
          <p className="screen__subtitle">
            Roles carry scope chains; accounts and tokens inherit them, including those of included roles:{' '}
            <code>/{orgClient.org}/v2/roles</code>
          </p>
        </div>
        <button
          type="button"
          className="button button--primary"
          data-testid="role-new"
          onClick={() => navigate({ ...route, id: 'new' })}
        >
          New role
        </button>
      </div>
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
                  <span>{role.name}</span>
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

function RoleEditor({
  orgClient,
  role,
  roles,
  justSaved,
  onSaved,
  onDeleted,
}: {
  orgClient: OrgClient;
  role: Role | null;
  roles: UseQueryResult<Role[]>;
  justSaved: boolean;
  onSaved: (role: Role) => void;
  onDeleted: () => void;
}) {
  const save = useSaveRole(orgClient);
  const remove = useDeleteRole(orgClient);
  const [name, setName] = useState(role?.name ?? '');
  const [code, setCode] = useState(role?.code ?? '');
  const [scopesText, setScopesText] = useState((role?.scopes ?? []).join('\n'));
  const [include, setInclude] = useState<string[]>(role?.include ?? []);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [saved, setSaved] = useState(justSaved);

  const chains = splitChains(scopesText);
  const invalid = chains.filter((chain) => !parseScopeChain(chain).ok).length;
  const nameOk = name.trim() !== '' && name.trim().length <= 100;
  const codeOk = code.trim() === '' || CODE.test(code.trim());
  const builtin = role !== null && isBuiltinRole(role._id);
  const inherited = role
    ? resolveRoleScopes(roles.data ?? [], include).scopes.filter((entry) => entry.role._id !== role._id)
    : resolveRoleScopes(roles.data ?? [], include).scopes;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!nameOk || !codeOk || invalid > 0) return;
    const draft: RoleDraft = { name: name.trim(), code: code.trim(), scopes: chains, include };
    save.mutate(
      { id: role?._id ?? null, draft },
      {
        onSuccess: (result) => {
          setSaved(true);
          onSaved(result);
        },
      },
    );
  };

  return (
    <form className="panel" data-testid="role-form" onSubmit={submit} noValidate>
      <p className="panel__title">{role ? role.name : 'New role'}</p>
      {role && (
        <p className="note">
          <code>{role._id}</code>
          {builtin && ' · built-in role'}
        </p>
      )}
      <div className="form-grid">
        <label className={nameOk ? 'field' : 'field field--invalid'}>
          <span className="field__label">Name</span>
          <input
            className="input"
            data-testid="role-name"
            value={name}
            aria-invalid={!nameOk || undefined}
            onChange={(e) => {
              setSaved(false);
              setName(e.target.value);
            }}
            autoFocus={role === null}
          />
        </label>
        <label className={codeOk ? 'field' : 'field field--invalid'}>
          <span className="field__label">Code</span>
          <input
            className="input input--mono"
            data-testid="role-code"
            value={code}
            aria-invalid={!codeOk || undefined}
            onChange={(e) => {
              setSaved(false);
              setCode(e.target.value);
            }}
          />
          {!codeOk && (
            <span className="field__error">Lower-case letters, digits, _ and -, starting with a letter.</span>
          )}
        </label>
        <label className={invalid > 0 ? 'field field--wide field--invalid' : 'field field--wide'}>
          <span className="field__label">Scope chains (one per line)</span>
          <textarea
            className="input input--mono"
            data-testid="role-scopes"
            value={scopesText}
            spellCheck={false}
            placeholder={'object.read.account.*.name\nview.execute.c_my_view'}
            aria-invalid={invalid > 0 || undefined}
            onChange={(e) => {
              setSaved(false);
              setScopesText(e.target.value);
            }}
          />
        </label>
      </div>
      <ChainChecks chains={chains} testId="role-scope-check" />
      {invalid > 0 && (
        <p className="field__error" data-testid="role-scopes-invalid">
          {invalid === 1 ? '1 chain is' : `${invalid} chains are`} not valid; the service would ignore{' '}
          {invalid === 1 ? 'it' : 'them'}, so the role cannot be saved until fixed.
        </p>
      )}
      <div className="panel__section">
        <RoleChecks
          legend="Include roles (their scopes are inherited)"
          roles={roles}
          selected={include}
          exclude={role?._id}
          testPrefix="role-include"
          onChange={(next) => {
            setSaved(false);
            setInclude(next);
          }}
        />
        {inherited.length > 0 && (
          <p className="note" data-testid="role-inherited">
            Inherited: {inherited.map((entry) => `${entry.chain} (${entry.role.name})`).join(', ')}
          </p>
        )}
      </div>
      {save.isError && <FaultMessage fault={faultOf(save.error)} compact />}
      {saved && !save.isPending && (
        <p className="note note--ok" role="status" data-testid="role-saved">
          Saved.
        </p>
      )}
      <div className="form__actions">
        <button
          type="submit"
          className="button button--primary"
          data-testid="role-save"
          disabled={!nameOk || !codeOk || invalid > 0 || save.isPending}
        >
          {save.isPending ? 'Saving…' : role ? 'Save role' : 'Create role'}
        </button>
        {role && !builtin && !confirmDelete && (
          <button
            type="button"
            className="button button--ghost"
            data-testid="role-delete"
            onClick={() => setConfirmDelete(true)}
          >
            Delete…
          </button>
        )}
      </div>
      {role && confirmDelete && (
        <div className="confirm" role="alertdialog" aria-label="Confirm deletion">
          Delete the role {role.name}? Accounts that hold it lose its scopes.
          <button
            type="button"
            className="button button--danger button--small"
            data-testid="role-delete-confirm"
            disabled={remove.isPending}
            onClick={() => remove.mutate(role._id, { onSuccess: onDeleted })}
          >
            Delete
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => setConfirmDelete(false)}>
            Cancel
          </button>
        </div>
      )}
      {remove.isError && <FaultMessage fault={faultOf(remove.error)} compact />}
    </form>
  );
}
