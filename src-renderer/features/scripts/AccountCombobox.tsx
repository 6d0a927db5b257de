import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { OrgClient } from '../../api/org-client';
import { accountSearchQuery } from '../../api/accounts';
import type { Account } from '../../api/types';

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function accountName(account: Pick<Account, 'email' | 'name'>): string {
  const name = [account.name?.first, account.name?.last].filter(Boolean).join(' ');
  return name ? `${name} <${account.email}>` : account.email;
}

interface AccountComboboxProps {
  orgClient: OrgClient;
  /** The text in the box (what the field holds when nothing is picked: an email or an _id). */
  value: string;
  onChange: (text: string) => void;
  onPick: (account: Account) => void;
  testId: string;
  id?: string;
  describedBy?: string;
  placeholder?: string;
  label?: string;
}

/**
 * A text box that suggests the org's accounts as you type (email, first or last name prefix, or
 * an _id), as a standard combobox: ↓/↑ move through the list, Enter picks, Escape closes.
 */
export function AccountCombobox(props: AccountComboboxProps) {
  const { orgClient, value, onChange, onPick, testId, id, describedBy, placeholder, label } = props;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDebounced(value, 200);
  const wanted = open && search.trim() !== '';
  const results = useQuery({ ...accountSearchQuery(orgClient, search), enabled: wanted });
  const options = wanted ? (results.data ?? []) : [];
  const listId = useId();
  const shown = wanted && (options.length > 0 || results.isFetched);
  const pick = (account: Account) => {
    setOpen(false);
    onPick(account);
  };
  return (
    <div className="combo">
      <input
        id={id}
        className="input input--mono"
        role="combobox"
        aria-label={label}
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && options[active] ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        data-testid={testId}
        placeholder={placeholder}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
            const step = e.key === 'ArrowDown' ? 1 : -1;
            setActive((i) => (options.length === 0 ? 0 : (i + step + options.length) % options.length));
          } else if (e.key === 'Enter' && shown && options[active]) {
            e.preventDefault();
            pick(options[active]);
          } else if (e.key === 'Escape' && shown) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
      />
      <ul className="combo__list" role="listbox" id={listId} hidden={!shown} data-testid={`${testId}-options`}>
        {shown && options.length === 0 && (
          <li className="combo__empty" role="presentation">
            No account matches.
          </li>
        )}
        {options.map((account, index) => (
          <li
            key={account._id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'combo__option combo__option--active' : 'combo__option'}
            data-testid={`${testId}-option`}
            // Keeps the focus in the box, so the pick is not lost to its blur.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(account)}
          >
            <span>{accountName(account)}</span>
            <small>{account._id}</small>
          </li>
        ))}
      </ul>
    </div>
  );
}
