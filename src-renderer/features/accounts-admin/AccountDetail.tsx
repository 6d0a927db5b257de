import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { adminAccountQuery, useAccountAction, useDeleteAccount, usePatchAccount } from '../../api/account-admin';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import type { Role } from '../../api/roles';
import { FaultMessage } from '../../components/FaultMessage';
import { RoleChecks } from '../../components/RoleChecks';
import { UtcTime } from '../../components/UtcTime';
import { AccountActivity } from './AccountActivity';
import { StateBadges } from './AccountList';
import { AccountPassword } from './AccountPassword';

/** One account: facts, actions (verify, lock, two-factor), password, sessions and tokens, roles, delete. */
export function AccountDetail({
  orgClient,
  id,
  roles,
  onDeleted,
  onOpenTokenLab,
}: {
  orgClient: OrgClient;
  id: string;
  roles: UseQueryResult<Role[]>;
  onDeleted: () => void;
  onOpenTokenLab: () => void;
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
        <dd>{data.created ? <UtcTime iso={data.created} /> : '—'}</dd>
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
      <AccountPassword orgClient={orgClient} account={data} />
      <AccountActivity orgClient={orgClient} accountId={data._id} onOpenTokenLab={onOpenTokenLab} />
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
              onClick={() => remove.mutateAsync(id).then(onDeleted, () => undefined)}
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
