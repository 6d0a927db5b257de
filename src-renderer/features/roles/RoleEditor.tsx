import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { isBuiltinRole, useDeleteRole, useSaveRole, type Role, type RoleDraft } from '../../api/roles';
import { scopeSchemaQuery } from '../../api/schemas';
import { ChainChecks } from '../../components/ChainMark';
import { describeChain, splitChains } from '../../components/chain-segments';
import { FaultMessage } from '../../components/FaultMessage';
import { Field, FieldError } from '../../components/Field';
import { RoleChecks } from '../../components/RoleChecks';
import { EffectiveScopes, RoleMembers } from './RoleFacts';

const CODE = /^[a-z][a-z0-9_-]{0,99}$/;

/** A role's name, code, scope chains (checked as typed, by the service's rules) and included roles. */
export function RoleEditor({
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
  // The org's object types: a chain naming what the org lacks is refused as the service refuses it.
  const types = useQuery(scopeSchemaQuery(orgClient)).data;
  const invalid = chains.filter((chain) => !describeChain(chain, types).ok).length;
  const nameOk = name.trim() !== '' && name.trim().length <= 100;
  const codeOk = code.trim() === '' || CODE.test(code.trim());
  const builtin = role !== null && isBuiltinRole(role._id);

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
    <form className="panel role-editor" data-testid="role-form" onSubmit={submit} noValidate>
      <div className="role-editor__head">
        <p className="panel__title">{role ? role.name : 'New role'}</p>
        {role && (
          <p className="note">
            <code>{role._id}</code>
            {builtin && ' · built-in role'}
          </p>
        )}
      </div>
      {/* Two columns, each scrolling on its own: what the role is defined as, and what it grants to
          whom — so scopes and members stay in view together even in a 1024×700 window. */}
      <div className="role-editor__columns">
        <div className="role-editor__definition">
          <div className="form-grid">
            <Field label="Name" invalid={!nameOk}>
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
            </Field>
            <Field
              label="Code"
              error={codeOk ? undefined : 'Lower-case letters, digits, _ and -, starting with a letter.'}
            >
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
            </Field>
            <Field
              label="Scope chains (one per line)"
              wide
              invalid={invalid > 0}
              hint={
                <>
                  For example <code>object.read.account.*.name</code> or <code>view.execute.c_my_view</code>.
                </>
              }
            >
              <textarea
                className="input input--mono"
                data-testid="role-scopes"
                value={scopesText}
                spellCheck={false}
                aria-invalid={invalid > 0 || undefined}
                onChange={(e) => {
                  setSaved(false);
                  setScopesText(e.target.value);
                }}
              />
            </Field>
          </div>
          <ChainChecks chains={chains} testId="role-scope-check" types={types} />
          {invalid > 0 && (
            <FieldError testId="role-scopes-invalid">
              {invalid === 1 ? '1 chain is' : `${invalid} chains are`} not valid or can grant nothing; the service
              refuses {invalid === 1 ? 'it' : 'them'}, so the role cannot be saved until fixed.
            </FieldError>
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
                // mutateAsync, not mutate's onSuccess: the refetched list drops the role and unmounts this
                // editor first, and a per-call callback of an unmounted observer never runs.
                onClick={() => remove.mutateAsync(role._id).then(onDeleted, () => undefined)}
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
          )}
          {remove.isError && <FaultMessage fault={faultOf(remove.error)} compact />}
        </div>
        <div className="role-editor__facts">
          <EffectiveScopes roles={roles.data ?? []} role={role} chains={chains} include={include} />
          {role && <RoleMembers orgClient={orgClient} role={role} />}
        </div>
      </div>
    </form>
  );
}
