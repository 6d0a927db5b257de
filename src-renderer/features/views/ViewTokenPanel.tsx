import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { sessionQuery } from '../../api/session';
import { mintViewToken, viewScope, type ViewRecord } from '../../api/views';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';

const LIFETIMES = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
];

/**
 * Shares a view without read access: a token whose only scope is `view.execute.<name>`, minted
 * for an account through the console's app, shown once in a dialog (never cached or stored).
 */
export function ViewTokenPanel({ orgClient, view }: { orgClient: OrgClient; view: ViewRecord }) {
  const session = useQuery(sessionQuery(orgClient));
  const me = session.data?.loggedin ? session.data.account?._id : undefined;
  const [account, setAccount] = useState('');
  const [lifetime, setLifetime] = useState(86_400);
  const [token, setToken] = useState<string | null>(null);
  const subject = account.trim() || me || '';
  const mint = useMutation({
    mutationFn: () => mintViewToken(orgClient, subject, view.name, lifetime),
    onSuccess: (jwt) => setToken(jwt),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (subject !== '') mint.mutate();
  };

  return (
    <form className="panel" aria-label="View token" data-testid="view-token-panel" onSubmit={submit}>
      <p className="panel__title">Share with a token</p>
      <p className="note">
        A token limited to <code>{viewScope(view.name)}</code> runs this view and reads nothing else: a direct read of{' '}
        {view.sourceObject} records is refused. The account&apos;s other claims (its roles) still apply to the
        view&apos;s acl.
      </p>
      <div className="view-run__form">
        <Field label="For account (_id; blank: you)">
          <input
            className="input input--mono"
            data-testid="view-token-account"
            value={account}
            placeholder={me ?? ''}
            onChange={(e) => setAccount(e.target.value)}
          />
        </Field>
        <Field label="Expires after">
          <select
            className="select"
            data-testid="view-token-lifetime"
            value={lifetime}
            onChange={(e) => setLifetime(Number(e.target.value))}
          >
            {LIFETIMES.map((l) => (
              <option key={l.seconds} value={l.seconds}>
                {l.label}
              </option>
            ))}
          </select>
        </Field>
        <button
          type="submit"
          className="button button--secondary"
          data-testid="view-token-mint"
          disabled={subject === '' || mint.isPending}
        >
          {mint.isPending ? 'Minting…' : 'Mint view token'}
        </button>
      </div>
      {mint.isError && <FaultMessage fault={faultOf(mint.error)} compact />}
      {token !== null && (
        <Dialog title={`Token for the view ${view.name}`} onClose={() => setToken(null)} testId="view-token-dialog">
          <p className="note">
            <strong>You won’t see this again.</strong> Scope: <code>{viewScope(view.name)}</code>. Send it as{' '}
            <code>Authorization: Bearer …</code>.
          </p>
          <div className="keys-secret">
            <code data-testid="view-token-value">{token}</code>
            <CopyButton text={token} testId="view-token-copy" />
          </div>
          <div className="form__actions">
            <button
              type="button"
              className="button button--primary"
              data-testid="view-token-done"
              onClick={() => setToken(null)}
            >
              Done
            </button>
          </div>
        </Dialog>
      )}
    </form>
  );
}
