import { useState, type FormEvent } from 'react';
import { PASSWORD_RULE_HINT } from '../../../src-shared/passwords/strength';
import { faultOf } from '../../api/api-error';
import { useSetupMutation } from '../../api/service';
import type { SetupRequest } from '../../api/types';
import { AuthLayout } from '../../components/AuthLayout';
import { FaultMessage } from '../../components/FaultMessage';
import { TextField } from '../../components/TextField';
import { hasErrors, validateSetup, type SetupErrors } from './setup-validation';

interface SetupForm {
  org: string;
  orgName: string;
  first: string;
  last: string;
  email: string;
  password: string;
  confirm: string;
}

/** The request the form makes: empty optional fields are left out for the service's defaults. */
function setupRequest(form: SetupForm): SetupRequest {
  const request: SetupRequest = { org: form.org, email: form.email.trim(), password: form.password };
  if (form.orgName.trim() !== '') request.name = form.orgName.trim();
  const first = form.first.trim();
  const last = form.last.trim();
  if (first !== '' || last !== '') request.adminName = { ...(first ? { first } : {}), ...(last ? { last } : {}) };
  return request;
}

/**
 * First run: create the first org and its administrator, then sign in as them. The org code
 * starts as the one the service was started for (`--org`, from /_service/info).
 */
export function SetupScreen({ defaultOrg }: { defaultOrg?: string | null | undefined }) {
  const [form, setForm] = useState<SetupForm>({
    org: defaultOrg ?? 'demo',
    orgName: '',
    first: '',
    last: '',
    email: '',
    password: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<SetupErrors>({});
  const setup = useSetupMutation();

  const field = (name: keyof SetupForm) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => {
      setForm((current) => ({ ...current, [name]: event.target.value }));
      if (name in errors) setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateSetup({ org: form.org, email: form.email, password: form.password, confirm: form.confirm });
    setErrors(found);
    if (hasErrors(found)) return;
    setup.mutate(setupRequest(form));
  };

  return (
    <AuthLayout title="Set up the service" subtitle="Create the first org and its administrator account.">
      <form className="form" onSubmit={submit} noValidate data-testid="setup-form">
        {setup.isError && <FaultMessage fault={faultOf(setup.error)} compact />}
        <TextField
          label="Org code"
          hint="Lower-case letters, digits and hyphens. Part of every API address: /<org>/v2."
          testId="setup-org"
          {...field('org')}
          error={errors.org}
          autoComplete="off"
          spellCheck={false}
          className="input--mono"
          required
        />
        <TextField
          label="Org name (optional)"
          hint="Shown in the console’s header; the code when left empty."
          testId="setup-org-name"
          {...field('orgName')}
          autoComplete="organization"
        />
        <div className="form__row">
          <TextField label="First name" testId="setup-first" {...field('first')} autoComplete="given-name" />
          <TextField label="Last name" testId="setup-last" {...field('last')} autoComplete="family-name" />
        </div>
        <TextField
          label="Administrator email"
          testId="setup-email"
          type="email"
          {...field('email')}
          error={errors.email}
          autoComplete="username"
          required
        />
        <TextField
          label="Password"
          hint={PASSWORD_RULE_HINT}
          testId="setup-password"
          type="password"
          {...field('password')}
          error={errors.password}
          autoComplete="new-password"
          required
        />
        <TextField
          label="Confirm password"
          testId="setup-confirm"
          type="password"
          {...field('confirm')}
          error={errors.confirm}
          autoComplete="new-password"
          required
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={setup.isPending}
          data-testid="setup-submit"
        >
          {setup.isPending ? 'Creating…' : 'Create org and sign in'}
        </button>
      </form>
    </AuthLayout>
  );
}
