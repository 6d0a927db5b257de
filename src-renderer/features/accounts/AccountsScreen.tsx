import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { accountsPageQuery } from '../../api/accounts';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import type { Account, ListPage } from '../../api/types';
import { PAGE_SIZES, isPageSize, type AccountsRoute } from '../../routing/route';
import { nextPage, previousPage, withPageSize } from './accounts-route';
import { AccountsTable, type TableContent } from './AccountsTable';
import { describeRowRange } from '../../components/format-cells';
import { Pager } from '../../components/Pager';

interface AccountsScreenProps {
  orgClient: OrgClient;
  route: AccountsRoute;
  navigate: (route: AccountsRoute) => void;
}

/** The accounts of the org, one page at a time; the page lives in the URL. */
export function AccountsScreen({ orgClient, route, navigate }: AccountsScreenProps) {
  const page = useQuery(accountsPageQuery(orgClient, { skip: route.skip, limit: route.limit }));
  // While the next page loads the previous one stays visible (dimmed) and paging waits for it.
  const settled = page.isSuccess && !page.isPlaceholderData;
  const content = tableContent(page, route, navigate);
  const rowCount = content.kind === 'rows' ? content.accounts.length : 0;

  return (
    <section className="screen" aria-labelledby="accounts-title">
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="accounts-title">
            Accounts
          </h1>
          <p className="screen__subtitle">
            <code>GET /{orgClient.org}/v2/accounts</code>
          </p>
        </div>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void page.refetch()}
          disabled={page.isFetching}
        >
          {page.isFetching ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      <div className="grid-frame">
        <AccountsTable content={content} stale={page.isPlaceholderData} />
      </div>
      <Pager
        testId="grid"
        range={settled ? describeRowRange(route.skip, rowCount) : '\u00a0'}
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

function tableContent(
  page: UseQueryResult<ListPage<Account>>,
  route: AccountsRoute,
  navigate: (route: AccountsRoute) => void,
): TableContent {
  if (page.isError) return { kind: 'error', fault: faultOf(page.error), onRetry: () => void page.refetch() };
  if (!page.data) return { kind: 'loading' };
  const onFirstPage = route.skip > 0 ? () => navigate({ ...route, skip: 0 }) : null;
  return { kind: 'rows', accounts: page.data.items, onFirstPage };
}
