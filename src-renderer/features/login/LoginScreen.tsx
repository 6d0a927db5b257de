import { useState, type FormEvent } from 'react';
import type { FaultBody } from '../../../src-shared/faults';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { useLoginMutation } from '../../api/session';
import type { OrgSummary } from '../../api/types';
import { AuthLayout } from '../../components/AuthLayout';
import { FaultMessage } from '../../components/FaultMessage';
import { TextField } from '../../components/TextField';
import { OrgPicker } from './OrgPicker';

interface LoginScreenProps {
  orgClient: OrgClient;
  orgs: OrgSummary[];
  /** Why the previous session ended, if it did (expired, signed in elsewhere). */
  endedBy: FaultBody | undefined;
  onSelectOrg: (code: string) => void;
}

export function LoginScreen({ orgClient, orgs, endedBy, onSelectOrg }: LoginScreenProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useLoginMutation(orgClient);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    login.mutate({ email: email.trim(), password });
  };

  // One message at a time: the latest attempt's fault replaces the note about the ended session.
  const fault = login.isError ? faultOf(login.error) : login.isIdle ? endedBy : undefined;

  return (
    <AuthLayout title="Sign in" subtitle={<OrgPicker orgs={orgs} current={orgClient.org} onSelect={onSelectOrg} />}>
      <form className="form" onSubmit={submit} data-testid="login-form">
        {fault && <FaultMessage fault={fault} compact />}
        <TextField
          label="Email"
          testId="login-email"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          autoComplete="username"
          autoFocus
          required
        />
        <TextField
          label="Password"
          testId="login-password"
          type="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="current-password"
          required
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={login.isPending}
          data-testid="login-submit"
        >
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </AuthLayout>
  );
}
