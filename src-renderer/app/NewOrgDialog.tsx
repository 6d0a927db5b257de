import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { PASSWORD_RULE_HINT } from '../../src-shared/passwords/strength';
import { faultOf } from '../api/api-error';
import type { OrgClient } from '../api/org-client';
import { createOrg } from '../api/orgs';
import { queryKeys } from '../api/query-keys';
import { Dialog } from '../components/Dialog';
import { FaultMessage } from '../components/FaultMessage';
import { TextField } from '../components/TextField';
import { hasErrors, validateSetup, type SetupErrors } from '../features/setup/setup-validation';

/**
 * The operator's "New org": another tenant on this service, with a first administrator of its
 * own. That administrator is a new account in the new org only — the same email elsewhere is
 * another account, with its own password. Once made, the console goes to the new org's sign-in.
 */
export function NewOrgDialog({
  orgClient,
  onClose,
  onCreated,
}: {
  orgClient: OrgClient;
  onClose: () => void;
  onCreated: (code: string) => void;
}) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ code: '', name: '', email: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<SetupErrors>({});
  const create = useMutation({
    mutationFn: () =>
      createOrg(orgClient, {
        code: form.code,
        ...(form.name.trim() ? { name: form.name.trim() } : {}),
        adminEmail: form.email.trim(),
        adminPassword: form.password,
      }),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.serviceInfo() });
      onCreated(created.code);
    },
  });
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: event.target.value })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateSetup({ org: form.code, email: form.email, password: form.password, confirm: form.confirm });
    setErrors(found);
    if (!hasErrors(found)) create.mutate();
  };
  return (
    <Dialog title="New org" onClose={onClose} testId="new-org-dialog">
      <form className="form" onSubmit={submit} data-testid="new-org-form">
        <p className="note">
          An org is a tenant of its own: its accounts, apps, tokens and data are its own, and nobody here reaches it
          without a credential it issues. Only the service operator creates orgs.
        </p>
        <TextField
          label="Org code"
          testId="new-org-code"
          error={errors.org}
          hint="Lower-case letters, digits and -."
          {...field('code')}
        />
        <TextField label="Name (optional)" testId="new-org-name" {...field('name')} />
        <TextField
          label="First administrator’s email"
          testId="new-org-email"
          type="email"
          error={errors.email}
          hint="A new account of the new org: the same email here is another account."
          {...field('email')}
        />
        <TextField
          label="Their password"
          testId="new-org-password"
          type="password"
          autoComplete="new-password"
          error={errors.password}
          hint={PASSWORD_RULE_HINT}
          {...field('password')}
        />
        <TextField
          label="Password again"
          testId="new-org-confirm"
          type="password"
          autoComplete="new-password"
          error={errors.confirm}
          {...field('confirm')}
        />
        {create.isError && <FaultMessage fault={faultOf(create.error)} compact />}
        <div className="form__actions">
          <button
            type="submit"
            className="button button--primary"
            data-testid="new-org-submit"
            disabled={create.isPending}
          >
            {create.isPending ? 'Creating…' : 'Create org'}
          </button>
          <button type="button" className="button button--ghost" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
