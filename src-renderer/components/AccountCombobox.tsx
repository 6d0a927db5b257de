import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
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

type PickedAccount = Pick<Account, '_id' | 'email' | 'name'>;

interface CommonProps {
  orgClient: OrgClient;
  /** The text box's id (a `Field` render function gives it, so the label names the box). */
  id?: string | undefined;
  describedBy?: string | undefined;
  /** The box's accessible name where no `Field` label names it. */
  label?: string;
  testId: string;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
}

/** The field holds an account: the box shows the picked one by name; typing only searches. */
interface PickProps extends CommonProps {
  /** The picked account's `_id`; undefined: none. */
  value: string | undefined;
  onChange: (account: PickedAccount | undefined) => void;
  /** Offer a button that clears the choice (where "no account" means something, e.g. anonymous). */
  clearable?: boolean;
}

/**
 * The field holds text the service resolves (an email or an `_id`, typed whole or filled by a
 * pick): the box shows that text, and picking a match calls `onPick` (which sets the text, or
 * uses the account and empties it).
 */
interface TextProps extends CommonProps {
  text: string;
  onText: (text: string) => void;
  onPick: (account: Account) => void;
}

/**
 * Picks an account by typing part of its email or name (the Manage-accounts search, `searchWhere`)
 * or its `_id`: an ARIA combobox (WAI-ARIA APG pattern, combobox-keys.ts) — arrow keys move
 * through the matches, Enter picks, Escape closes the list and then restores the text; focus
 * stays in the box. The console's one account picker, for both kinds of field above.
 */
export function AccountCombobox(props: PickProps | TextProps) {
  const { orgClient, testId } = props;
  const textMode = 'text' in props;
  const value = textMode ? undefined : props.value;
  // Pick mode: `null` while the box shows the picked account; the typed text while searching.
  const [typed, setTyped] = useState<string | null>(null);
  const text = textMode ? props.text : typed;
  const [state, setState] = useState<ComboboxState>(CLOSED);
  const search = useDebounced(text ?? '', 250);
  const searching = state.open && text !== null && search.trim() !== '';
  const results = useQuery({ ...accountSearchQuery(orgClient, search), enabled: searching });
  const current = useQuery({ ...accountQuery(orgClient, value ?? ''), enabled: value !== undefined });
  const options = searching ? (results.data ?? []) : [];
  const active = clampActive(state, options.length);
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const listId = `${id}-listbox`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const expanded = active.open && options.length > 0;
  const shownText = text ?? (value === undefined ? '' : current.data ? accountLabel(current.data) : value);

  const typeText = (next: string) => (textMode ? props.onText(next) : setTyped(next));
  const pick = (account: Account) => {
    setTyped(null);
    setState(CLOSED);
    if (textMode) props.onPick(account);
    else props.onChange(account);
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
        className={textMode ? 'input input--mono' : 'input'}
        type="text"
        role="combobox"
        aria-label={props.label}
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
          typeText(e.target.value);
          setState({ open: e.target.value.trim() !== '', active: -1 });
        }}
        onBlur={() => {
          setTyped(null);
          setState(CLOSED);
        }}
        onKeyDown={(e) => {
          const step = comboboxKey(e.key, active, options.length);
          // In text mode the text is the value: a closed list's Escape has nothing to restore and
          // is left to what surrounds the box.
          const revert = step.revert === true && !textMode;
          if (step.handled && (revert || !step.revert)) e.preventDefault();
          // Escape on an open list is the list's: a dialog or screen around the box keeps it.
          if (e.key === 'Escape' && active.open) e.stopPropagation();
          setState(step.state);
          if (step.pick !== undefined && options[step.pick]) pick(options[step.pick]!);
          if (revert) setTyped(null);
        }}
      />
      {!textMode && props.clearable && value !== undefined && (
        <button
          type="button"
          className="icon-button icon-button--small"
          aria-label="Clear the account"
          data-testid={`${testId}-clear`}
          disabled={props.disabled}
          onClick={() => {
            setTyped(null);
            props.onChange(undefined);
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
