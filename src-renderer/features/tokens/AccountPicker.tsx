import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { accountQuery, accountSearchQuery } from '../../api/tokens';
import type { Account } from '../../api/types';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function accountLabel(account: Pick<Account, 'email' | 'name'>): string {
  const name = [account.name?.first, account.name?.last].filter(Boolean).join(' ');
  return name ? `${name} <${account.email}>` : account.email;
}

/** Search accounts by email, name or id (`GET /accounts?where=…`) and pick one. */
export function AccountPicker({
  orgClient,
  accountId,
  onPick,
}: {
  orgClient: OrgClient;
  accountId: string | undefined;
  onPick: (id: string | undefined) => void;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const search = useDebounced(text, 250);
  const results = useQuery({ ...accountSearchQuery(orgClient, search), enabled: open && search.trim() !== '' });
  const current = useQuery({ ...accountQuery(orgClient, accountId ?? ''), enabled: accountId !== undefined });
  const listId = useId();

  if (accountId !== undefined && !open) {
    return (
      <Field display label="Account">
        <div className="lab__row" data-testid="lab-account">
          {current.isPending && <span className="spinner" aria-hidden="true" />}
          {current.data && <span data-testid="lab-account-label">{accountLabel(current.data)}</span>}
          {current.isError && <FaultMessage fault={faultOf(current.error)} compact />}
          <code className="keys-mono">{accountId}</code>
          <button
            type="button"
            className="button button--ghost button--small"
            data-testid="lab-account-change"
            onClick={() => setOpen(true)}
          >
            Change
          </button>
        </div>
      </Field>
    );
  }
  return (
    <Field label="Account" className="lab__picker">
      {(inputId) => (
        <>
          <input
            id={inputId}
            className="input"
            type="search"
            placeholder="Search by email, name or _id"
            data-testid="lab-account-search"
            value={text}
            autoComplete="off"
            // A plain search box over a list of buttons (not a combobox): aria-expanded is not allowed
            // here, so the box names its results list only while that list is shown.
            aria-controls={open && search.trim() !== '' ? listId : undefined}
            onFocus={() => setOpen(true)}
            onChange={(e) => {
              setText(e.target.value);
              setOpen(true);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setText('');
                setOpen(false);
              }
            }}
          />
          {open && search.trim() !== '' && (
            <ul className="lab__results" id={listId} aria-label="Matching accounts" data-testid="lab-account-results">
              {results.isPending && (
                <li className="status-line">
                  <span className="spinner" aria-hidden="true" /> Searching…
                </li>
              )}
              {results.isError && (
                <li>
                  <FaultMessage fault={faultOf(results.error)} compact />
                </li>
              )}
              {results.data?.length === 0 && <li className="keys-note">No account matches.</li>}
              {results.data?.map((account) => (
                <li key={account._id}>
                  <button
                    type="button"
                    className="lab__result"
                    data-testid="lab-account-result"
                    onClick={() => {
                      setOpen(false);
                      setText('');
                      onPick(account._id);
                    }}
                  >
                    <span>{accountLabel(account)}</span>
                    <small>{account._id}</small>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Field>
  );
}
