import { useState, type FormEvent } from 'react';
import { accountSearchTextOf, accountSearchWhereText } from './account-search';

/**
 * Search box of the `accounts` collection: Enter (or Search) runs the name/email search as the
 * query's where. Remount it (key) when the URL's where changes so it shows what runs.
 */
export function AccountSearch({ where, onSearch }: { where: string | undefined; onSearch: (where?: string) => void }) {
  const [text, setText] = useState(() => accountSearchTextOf(where));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(accountSearchWhereText(text));
  };
  return (
    <form role="search" className="account-search" aria-label="Search accounts" onSubmit={submit}>
      <input
        aria-label="Search accounts by name or email"
        className="input"
        type="search"
        data-testid="browse-account-search"
        placeholder="Name or email…"
        title="Email, first or last name prefix (any case), or an exact _id"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit" className="button button--secondary button--small" data-testid="browse-account-search-run">
        Search
      </button>
    </form>
  );
}
