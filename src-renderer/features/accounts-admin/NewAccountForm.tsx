import { useState, type FormEvent } from 'react';
import { PASSWORD_RULE_HINT, passwordProblem } from '../../../src-shared/passwords/strength';
import { useCreateAccount, type AdminAccount } from '../../api/account-admin';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import type { Role } from '../../api/roles';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';

/** The form that creates an account (email, password, name, roles). */
export function NewAccountForm({
  orgClient,
  roles,
  onCancel,
  onCreated,
}: {
  orgClient: OrgClient;
  roles: Role[];
  onCancel: () => void;
  onCreated: (account: AdminAccount) => void;
}) {
  const create = useCreateAccount(orgClient);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const emailOk = /^[^\s@]+@[^\s@]+$/.test(email.trim());
  const passwordOk = password.length >= 8;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!emailOk || !passwordOk) return;
    const name: { first?: string; last?: string } = {};
    if (first.trim()) name.first = first.trim();
    if (last.trim()) name.last = last.trim();
    create.mutate(
      {
        email: email.trim(),
        password,
        ...(Object.keys(name).length > 0 ? { name } : {}),
        ...(chosen.length > 0 ? { roles: chosen } : {}),
      },
      { onSuccess: onCreated },
    );
  };

  return (
    <form className="panel" data-testid="new-account-form" onSubmit={submit} noValidate>
      <p className="panel__title">New account</p>
      <div className="form-grid">
        <Field label="Email" wide>
          <input
            className="input"
            type="email"
            autoComplete="off"
            data-testid="new-account-email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoFocus
          />
        </Field>
        <Field
          label="Password"
          wide
          hint={password !== '' ? (passwordProblem(password) ?? PASSWORD_RULE_HINT) : PASSWORD_RULE_HINT}
          hintTestId="new-account-password-hint"
        >
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            data-testid="new-account-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <Field label="First name">
          <input
            className="input"
            data-testid="new-account-first"
            value={first}
            onChange={(e) => setFirst(e.target.value)}
          />
        </Field>
        <Field label="Last name">
          <input
            className="input"
            data-testid="new-account-last"
            value={last}
            onChange={(e) => setLast(e.target.value)}
          />
        </Field>
      </div>
      <fieldset className="check-list">
        <legend className="panel__heading">Roles</legend>
        {roles.map((role) => (
          <label key={role._id} className="check">
            <input
              type="checkbox"
              data-testid={`new-account-role-${role.code ?? role._id}`}
              checked={chosen.includes(role._id)}
              onChange={(e) =>
                setChosen(e.target.checked ? [...chosen, role._id] : chosen.filter((id) => id !== role._id))
              }
            />
            {role.name}
          </label>
        ))}
      </fieldset>
      {create.isError && <FaultMessage fault={faultOf(create.error)} compact />}
      <div className="form__actions">
        <button
          type="submit"
          className="button button--primary"
          data-testid="new-account-submit"
          disabled={!emailOk || !passwordOk || create.isPending}
        >
          {create.isPending ? 'Creating…' : 'Create account'}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
