import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { adminAccountQuery } from '../../api/account-admin';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { rolesQuery } from '../../api/roles';
import { sessionQuery } from '../../api/session';
import { mintViewToken, setViewAcl, viewKeys, viewScope, type ViewRecord } from '../../api/views';
import { AccountCombobox, accountLabel } from '../../components/AccountCombobox';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';
import { aclWithAccount, viewAclVerdict } from './view-acl';

const LIFETIMES = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
];

/**
 * Shares a view without read access: a token whose only scope is `view.execute.<name>`, minted
 * for an account through the console's app, shown once in a dialog (never cached or stored). The
 * account is checked against the view's acl first: a token the view refuses is not minted.
 */
export function ViewTokenPanel({ orgClient, view }: { orgClient: OrgClient; view: ViewRecord }) {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery(orgClient));
  const me = session.data?.loggedin ? session.data.account : undefined;
  const [account, setAccount] = useState<string | undefined>(undefined);
  const [lifetime, setLifetime] = useState(86_400);
  const [token, setToken] = useState<string | null>(null);
  const subject = account ?? me?._id ?? '';
  const who = useQuery({ ...adminAccountQuery(orgClient, subject), enabled: subject !== '' });
  const roles = useQuery(rolesQuery(orgClient));
  const verdict = who.data && roles.data ? viewAclVerdict(view, who.data, roles.data) : undefined;
  const mint = useMutation({
    mutationFn: () => mintViewToken(orgClient, subject, view.name, lifetime),
    onSuccess: (jwt) => setToken(jwt),
  });
  const allow = useMutation({
    mutationFn: () => setViewAcl(orgClient, view._id, aclWithAccount(view.acl, subject)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewKeys.all(orgClient.org) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (subject !== '' && verdict?.allowed) mint.mutate();
  };
  const name = who.data ? accountLabel(who.data) : 'this account';

  return (
    <form className="panel" aria-label="View token" data-testid="view-token-panel" onSubmit={submit}>
      <p className="panel__title">Share with a token</p>
      <p className="note">
        A token limited to <code>{viewScope(view.name)}</code> runs this view and reads nothing else: a direct read of{' '}
        {view.sourceObject} records is refused. The account&apos;s roles still count for the view&apos;s acl.
      </p>
      <div className="view-run__form">
        <Field label="For account" className="view-token__account">
          {(id, describedBy) => (
            <AccountCombobox
              orgClient={orgClient}
              id={id}
              describedBy={describedBy}
              value={account}
              clearable
              testId="view-token-account"
              placeholder={me ? `You (${me.email}) — or search…` : 'Search by email, name or _id'}
              onChange={(picked) => {
                allow.reset();
                setAccount(picked?._id);
              }}
            />
          )}
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
          disabled={subject === '' || !verdict?.allowed || mint.isPending}
          title={verdict && !verdict.allowed ? 'The view would refuse this token: see above.' : undefined}
        >
          {mint.isPending ? 'Minting…' : 'Mint view token'}
        </button>
      </div>
      {who.isError && <FaultMessage fault={faultOf(who.error)} compact />}
      {verdict && (
        <div
          className={verdict.allowed ? 'note note--ok' : 'note note--warn'}
          role="status"
          data-testid="view-token-acl"
          data-allowed={verdict.allowed}
        >
          {verdict.allowed ? (
            <>
              ✓ {name} may run this view. {verdict.reason}
            </>
          ) : (
            <>
              <strong>✗ The view refuses {name}:</strong> a token for it would be answered 403 (
              <code>accessDenied.view</code>). {verdict.reason}{' '}
              {verdict.addable && (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  data-testid="view-token-acl-add"
                  disabled={allow.isPending}
                  onClick={() => allow.mutate()}
                >
                  {allow.isPending ? 'Adding…' : `Add ${who.data?.email ?? 'the account'} to the view’s acl`}
                </button>
              )}
            </>
          )}
        </div>
      )}
      {allow.isError && <FaultMessage fault={faultOf(allow.error)} compact />}
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
