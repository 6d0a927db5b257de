import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { OrgClient } from '../../api/org-client';
import { rolesQuery, type Role } from '../../api/roles';
import { FieldError, FieldSet } from '../../components/Field';
import { accountQuery } from '../../api/accounts';
import { AccountCombobox, accountLabel } from '../../components/AccountCombobox';

interface AclEditorProps {
  orgClient: OrgClient;
  acl: string[];
  onChange: (acl: string[]) => void;
  error?: string | false | undefined;
}

/** What an acl entry admits, in words (README "Route settings", script-routes.ts `aclAllows`). */
export function aclWords(entry: string, roles: readonly Role[]): string {
  const lower = entry.toLowerCase();
  if (lower === 'anonymous') return 'Anyone, signed in or not';
  if (lower === 'account.public') return 'Any signed-in account';
  if (lower.startsWith('role.')) {
    const role = roles.find((r) => r._id === lower.slice(5));
    return role ? `Holders of the role ${role.name}` : `Holders of role ${lower.slice(5)}`;
  }
  if (lower.startsWith('account.')) return `The account ${lower.slice(8)}`;
  return 'Not an entry the service reads';
}

const ACCOUNT_ID = /^[0-9a-f]{24}$/i;

/** "The account Ann Route <ann@…>" once the account is read; its id until then (or if it is gone). */
function AccountWords({ orgClient, id }: { orgClient: OrgClient; id: string }) {
  const account = useQuery({ ...accountQuery(orgClient, id), retry: false });
  return <>The account {account.data ? accountLabel(account.data) : id}</>;
}

/**
 * The route's acl: who may call it. Entries are picked, not typed: anyone, any signed-in account,
 * a role of the org, or an account found by name or email.
 */
export function AclEditor({ orgClient, acl, onChange, error }: AclEditorProps) {
  const roles = useQuery(rolesQuery(orgClient));
  const [adding, setAdding] = useState<'' | 'account'>('');
  const [accountText, setAccountText] = useState('');
  const add = (entry: string) => {
    if (!acl.includes(entry)) onChange([...acl, entry]);
  };
  const roleList = roles.data ?? [];
  return (
    <FieldSet legend="Who may call it (acl)" className="acl-editor" testId="route-acl">
      {acl.length === 0 ? (
        <p className="keys-note" data-testid="route-acl-default">
          No entries: any signed-in account (<code>account.public</code>).
        </p>
      ) : (
        <ul className="acl-editor__list">
          {acl.map((entry) => (
            <li key={entry} className="acl-editor__entry" data-testid="route-acl-entry" data-entry={entry}>
              <code>{entry}</code>
              <span className="keys-note">
                {entry.toLowerCase().startsWith('account.') && ACCOUNT_ID.test(entry.slice(8)) ? (
                  <AccountWords orgClient={orgClient} id={entry.slice(8).toLowerCase()} />
                ) : (
                  aclWords(entry, roleList)
                )}
              </span>
              <button
                type="button"
                className="icon-button icon-button--small"
                aria-label={`Remove ${entry}`}
                onClick={() => onChange(acl.filter((e) => e !== entry))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <FieldError>{error}</FieldError>}
      <div className="acl-editor__add">
        <select
          className="select"
          aria-label="Add an acl entry"
          data-testid="route-acl-add"
          value=""
          onChange={(e) => {
            const value = e.target.value;
            if (value === 'account') setAdding('account');
            else if (value !== '') add(value);
          }}
        >
          <option value="">+ Add who may call…</option>
          <option value="anonymous">anonymous: anyone</option>
          <option value="account.public">account.public: any signed-in account</option>
          {roleList.map((role) => (
            <option key={role._id} value={`role.${role._id}`}>
              role: {role.name}
            </option>
          ))}
          <option value="account">an account…</option>
        </select>
        {adding === 'account' && (
          <AccountCombobox
            orgClient={orgClient}
            text={accountText}
            onText={setAccountText}
            onPick={(account) => {
              add(`account.${account._id}`);
              setAccountText('');
              setAdding('');
            }}
            testId="route-acl-account"
            label="Account to admit"
            placeholder="Name, email or _id"
          />
        )}
      </div>
    </FieldSet>
  );
}
