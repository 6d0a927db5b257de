import { useState } from 'react';
import { PASSWORD_RULE_HINT, passwordProblem } from '../../../src-shared/passwords/strength';
import { useSetAccountPassword, type AdminAccount } from '../../api/account-admin';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';

/**
 * Setting an account's password for its owner (a reset by an administrator): the same strength
 * rule as everywhere (src-shared/passwords), typed twice; the account's sessions end.
 */
export function AccountPassword({ orgClient, account }: { orgClient: OrgClient; account: AdminAccount }) {
  const setPassword = useSetAccountPassword(orgClient);
  const [open, setOpen] = useState(false);
  const [password, setPasswordText] = useState('');
  const [confirm, setConfirm] = useState('');
  const problem = password === '' ? undefined : passwordProblem(password);
  const mismatch = confirm !== '' && confirm !== password ? 'The two passwords differ.' : undefined;
  const ready = password !== '' && problem === undefined && confirm === password;

  if (!open) {
    return (
      <div className="panel__section">
        <p className="panel__heading">Password</p>
        <div className="access-toolbar">
          <button
            type="button"
            className="button button--secondary"
            data-testid="account-password-open"
            onClick={() => {
              setPassword.reset();
              setOpen(true);
            }}
          >
            Set a new password…
          </button>
          {setPassword.isSuccess && (
            <span className="note note--ok" role="status" data-testid="account-password-done">
              Password set; the account’s sessions were ended.
            </span>
          )}
        </div>
      </div>
    );
  }
  return (
    <form
      className="panel__section"
      data-testid="account-password-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!ready) return;
        setPassword.mutate(
          { id: account._id, password },
          {
            onSuccess: () => {
              setOpen(false);
              setPasswordText('');
              setConfirm('');
            },
          },
        );
      }}
    >
      <p className="panel__heading">New password for {account.email}</p>
      <div className="form-grid">
        <Field label="New password" hint={PASSWORD_RULE_HINT} error={problem} errorTestId="account-password-problem">
          {(id, describedBy) => (
            <input
              id={id}
              type="password"
              className="input"
              autoComplete="new-password"
              data-testid="account-password"
              aria-describedby={describedBy}
              value={password}
              onChange={(e) => setPasswordText(e.target.value)}
            />
          )}
        </Field>
        <Field label="Type it again" error={mismatch}>
          {(id, describedBy) => (
            <input
              id={id}
              type="password"
              className="input"
              autoComplete="new-password"
              data-testid="account-password-confirm"
              aria-describedby={describedBy}
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
            />
          )}
        </Field>
      </div>
      {setPassword.isError && <FaultMessage fault={faultOf(setPassword.error)} compact />}
      <div className="form__actions">
        <button
          type="submit"
          className="button button--primary"
          data-testid="account-password-save"
          disabled={!ready || setPassword.isPending}
        >
          {setPassword.isPending ? 'Setting…' : 'Set password and end sessions'}
        </button>
        <button type="button" className="button button--ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
