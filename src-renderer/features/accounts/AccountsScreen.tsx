import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { searchWhere } from '../../api/account-admin';
import { accountsPageQuery } from '../../api/accounts';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { countQuery } from '../../api/record-count';
import type { Account, ListPage } from '../../api/types';
import { PAGE_SIZES, isPageSize, type AccountsRoute } from '../../routing/route';
import { nextPage, previousPage, withPageSize, withSearch } from './accounts-route';
import { AccountsTable, type TableContent } from './AccountsTable';
import { describeRowRange } from '../../components/format-cells';
import { Pager } from '../../components/Pager';
import { ScreenHeader } from '../../components/ScreenHeader';

interface AccountsScreenProps {
  orgClient: OrgClient;
  route: AccountsRoute;
  navigate: (route: AccountsRoute, options?: { replace?: boolean }) => void;
}

/**
 * The accounts of the org, one page at a time, with their total and the search Manage accounts
 * and Browse use (email, first or last name prefix, or an `_id`); page and search live in the URL.
 */
export function AccountsScreen({ orgClient, route, navigate }: AccountsScreenProps) {
  const where = searchWhere(route.q ?? '');
  const page = useQuery(
    accountsPageQuery(orgClient, { skip: route.skip, limit: route.limit, ...(where ? { where } : {}) }),
  );
  // While the next page loads the previous one stays visible (dimmed) and paging waits for it.
  const settled = page.isSuccess && !page.isPlaceholderData;
  // The total is asked once the rows have shown, so it never delays them.
  const total = useQuery({ ...countQuery(orgClient, 'accounts', where), enabled: settled });
  const content = tableContent(page, route, navigate);
  const rowCount = content.kind === 'rows' ? content.accounts.length : 0;

  return (
    <section className="screen" aria-labelledby="accounts-title">
      <ScreenHeader
        title="Accounts"
        titleId="accounts-title"
        description={<code>GET /{orgClient.org}/v2/accounts</code>}
        actions={
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              void page.refetch();
              void total.refetch();
            }}
            disabled={page.isFetching}
          >
            {page.isFetching ? 'Loading…' : 'Refresh'}
          </button>
        }
      />
      <AccountsSearch text={route.q ?? ''} onSearch={(q) => navigate(withSearch(route, q), { replace: true })} />
      <div className="grid-frame">
        <AccountsTable content={content} stale={page.isPlaceholderData} />
      </div>
      <Pager
        testId="grid"
        range={
          settled
            ? describeRowRange(route.skip, rowCount, total.data ?? (total.isFetching ? 'counting' : undefined))
            : '\u00a0'
        }
        canPrevious={route.skip > 0 && !page.isPlaceholderData}
        canNext={settled && page.data.hasMore}
        onPrevious={() => navigate(previousPage(route))}
        onNext={() => navigate(nextPage(route))}
        pageSize={{
          value: route.limit,
          options: PAGE_SIZES,
          onChange: (size) => isPageSize(size) && navigate(withPageSize(route, size)),
        }}
      />
    </section>
  );
}

/** The search box; the URL holds what was searched. */
function AccountsSearch({ text, onSearch }: { text: string; onSearch: (text: string) => void }) {
  const [typed, setTyped] = useState(text);
  // The text last searched; a different one in the URL (Back, a link) replaces what the box holds.
  const [searched, setSearched] = useState(text);
  if (text !== searched) {
    setSearched(text);
    setTyped(text);
  }
  // The search is asked once typing pauses.
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const type = (value: string) => {
    setTyped(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setSearched(value);
      onSearch(value);
    }, 250);
  };
  return (
    <div className="access-toolbar">
      <label className="inline-select">
        <span className="visually-hidden">Search accounts</span>
        <input
          className="input"
          type="search"
          placeholder="Search by email, first or last name, or _id"
          data-testid="accounts-search"
          value={typed}
          onChange={(e) => type(e.target.value)}
        />
      </label>
    </div>
  );
}

function tableContent(
  page: UseQueryResult<ListPage<Account>>,
  route: AccountsRoute,
  navigate: (route: AccountsRoute) => void,
): TableContent {
  if (page.isError) return { kind: 'error', fault: faultOf(page.error), onRetry: () => void page.refetch() };
  if (!page.data) return { kind: 'loading' };
  const onFirstPage = route.skip > 0 ? () => navigate({ ...route, skip: 0 }) : null;
  return { kind: 'rows', accounts: page.data.items, onFirstPage, searched: route.q !== undefined };
}
