import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { accountQuery, accountSearchQuery } from '../api/accounts';
import type { OrgClient } from '../api/org-client';
import type { Account } from '../api/types';
import { CLOSED, clampActive, comboboxKey, type ComboboxState } from './combobox-keys';
import { useDebounced } from './use-debounced';
import '../styles/combobox.css';

export function accountLabel(account: Pick<Account, 'email' | 'name'>): string {
  const name = [account.name?.first, account.name?.last].filter(Boolean).join(' ');
  return name ? `${name} <${account.email}>` : account.email;
}

interface AccountComboboxProps {
  orgClient: OrgClient;
  /** The text box's id (a `Field` render function gives it, so the label names the box). */
  id: string;
  describedBy?: string | undefined;
  /** The picked account's `_id`; undefined: none. */
  value: string | undefined;
  onChange: (account: Pick<Account, '_id' | 'email' | 'name'> | undefined) => void;
  testId: string;
  placeholder?: string;
  /** Offer a button that clears the choice (where "no account" means something, e.g. anonymous). */
  clearable?: boolean;
  disabled?: boolean;
  invalid?: boolean;
}

/**
 * Picks an account by typing part of its email or name (the Manage-accounts search, `searchWhere`)
 * or its `_id`: an ARIA combobox (WAI-ARIA APG pattern) — arrow keys move through the matches,
 * Enter picks, Escape closes the list and then restores the text; focus stays in the box.
 */
export function AccountCombobox(props: AccountComboboxProps) {
  const { orgClient, id, value, onChange, testId } = props;
  // `null` while the box shows the picked account; the typed text while searching.
  const [text, setText] = useState<string | null>(null);
  const [state, setState] = useState<ComboboxState>(CLOSED);
  const search = useDebounced(text ?? '', 250);
  const results = useQuery({
    ...accountSearchQuery(orgClient, search),
    enabled: text !== null && search.trim() !== '',
  });
  const current = useQuery({ ...accountQuery(orgClient, value ?? ''), enabled: value !== undefined });
  const options = text !== null && search.trim() !== '' ? (results.data ?? []) : [];
  const active = clampActive(state, options.length);
  const listId = `${id}-listbox`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const expanded = active.open && options.length > 0;
  const shownText = text ?? (value === undefined ? '' : current.data ? accountLabel(current.data) : value);

  const pick = (account: Account) => {
    setText(null);
    setState(CLOSED);
    onChange(account);
  };
  const status =
    active.open && text !== null && text.trim() !== ''
      ? results.isError
        ? 'The search failed; type again to retry.'
        : results.isFetching || search !== text
          ? 'Searching…'
          : options.length === 0
            ? 'No account matches.'
            : null
      : null;

  return (
    <div className="combobox">
      <input
        id={id}
        className="input"
        type="text"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active.active >= 0 ? optionId(active.active) : undefined}
        aria-describedby={props.describedBy}
        aria-invalid={props.invalid ? true : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={props.placeholder ?? 'Search by email, name or _id'}
        disabled={props.disabled}
        data-testid={testId}
        value={shownText}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => {
          setText(e.target.value);
          setState({ open: e.target.value.trim() !== '', active: -1 });
        }}
        onBlur={() => {
          setText(null);
          setState(CLOSED);
        }}
        onKeyDown={(e) => {
          const step = comboboxKey(e.key, active, options.length);
          if (step.handled) e.preventDefault();
          setState(step.state);
          if (step.pick !== undefined && options[step.pick]) pick(options[step.pick]!);
          if (step.revert) setText(null);
        }}
      />
      {props.clearable && value !== undefined && (
        <button
          type="button"
          className="icon-button icon-button--small"
          aria-label="Clear the account"
          data-testid={`${testId}-clear`}
          disabled={props.disabled}
          onClick={() => {
            setText(null);
            onChange(undefined);
          }}
        >
          ×
        </button>
      )}
      {/* Always present so aria-controls names an element; empty (and hidden) while closed. */}
      <ul className="combobox__list" id={listId} role="listbox" aria-label="Matching accounts" hidden={!expanded}>
        {expanded &&
          options.map((account, index) => (
            <li
              key={account._id}
              id={optionId(index)}
              role="option"
              aria-selected={index === active.active}
              className="combobox__option"
              data-testid={`${testId}-option`}
              data-id={account._id}
              // Keeps the focus (and so the list) in the box until the click picks.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(account)}
            >
              <span>{accountLabel(account)}</span>
              <small>{account._id}</small>
            </li>
          ))}
      </ul>
      {status && (
        <p className="combobox__status" role="status" data-testid={`${testId}-status`}>
          {status}
        </p>
      )}
    </div>
  );
}
