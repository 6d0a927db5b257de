import { useState, type FormEvent } from 'react';
import { PASSWORD_RULE_HINT } from '../../../src-shared/passwords/strength';
import { faultOf } from '../../api/api-error';
import { useSetupMutation } from '../../api/service';
import type { SetupRequest } from '../../api/types';
import { AuthLayout } from '../../components/AuthLayout';
import { FaultMessage } from '../../components/FaultMessage';
import { TextField } from '../../components/TextField';
import { hasErrors, validateSetup, type SetupErrors } from './setup-validation';

const INITIAL_VALUES: SetupRequest = { org: 'demo', email: '', password: '' };

/** First run: create the first org and its administrator, then sign in as them. */
export function SetupScreen() {
  const [values, setValues] = useState<SetupRequest>(INITIAL_VALUES);
  const [errors, setErrors] = useState<SetupErrors>({});
  const setup = useSetupMutation();

  const update = (field: keyof SetupRequest) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateSetup(values);
    setErrors(found);
    if (hasErrors(found)) return;
    setup.mutate({ ...values, email: values.email.trim() });
  };

  return (
    <AuthLayout title="Set up the service" subtitle="Create the first org and its administrator account.">
      <form className="form" onSubmit={submit} noValidate data-testid="setup-form">
        {setup.isError && <FaultMessage fault={faultOf(setup.error)} compact />}
        <TextField
          label="Org code"
          hint="Lower-case letters, digits and hyphens. Part of every API address: /<org>/v2."
          testId="setup-org"
          value={values.org}
          onChange={(event) => update('org')(event.target.value)}
          error={errors.org}
          autoComplete="off"
          spellCheck={false}
          className="input--mono"
          required
        />
        <TextField
          label="Administrator email"
          testId="setup-email"
          type="email"
          value={values.email}
          onChange={(event) => update('email')(event.target.value)}
          error={errors.email}
          autoComplete="username"
          required
        />
        <TextField
          label="Password"
          hint={PASSWORD_RULE_HINT}
          testId="setup-password"
          type="password"
          value={values.password}
          onChange={(event) => update('password')(event.target.value)}
          error={errors.password}
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
