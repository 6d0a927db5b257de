import type { ReactNode } from 'react';
import type { FaultBody } from '../../../src-shared/faults';
import type { Account } from '../../api/types';
import { FaultMessage } from '../../components/FaultMessage';
import { formatText, formatTimestamp } from '../../components/format-cells';

/** Column headers are the property paths, as a query would name them. */
const COLUMNS = ['_id', 'email', 'name.first', 'name.last', 'state', 'created'] as const;

export type TableContent =
  | { kind: 'loading' }
  | { kind: 'error'; fault: FaultBody; onRetry: () => void }
  | { kind: 'rows'; accounts: Account[]; onFirstPage: (() => void) | null; searched: boolean };

export function AccountsTable({ content, stale }: { content: TableContent; stale: boolean }) {
  return (
    <table
      className={stale ? 'grid grid--stale' : 'grid'}
      data-testid="accounts-grid"
      aria-busy={stale || content.kind === 'loading'}
    >
      <thead>
        <tr>
          {COLUMNS.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <TableBody content={content} />
      </tbody>
    </table>
  );
}

function TableBody({ content }: { content: TableContent }) {
  switch (content.kind) {
    case 'loading':
      return <StatusRow>Loading accounts…</StatusRow>;
    case 'error':
      return (
        <StatusRow>
          <FaultMessage fault={content.fault} onRetry={content.onRetry} compact />
        </StatusRow>
      );
    case 'rows':
      if (content.accounts.length === 0)
        return <EmptyRow onFirstPage={content.onFirstPage} searched={content.searched} />;
      return content.accounts.map((account) => <AccountRow key={account._id} account={account} />);
  }
}

function AccountRow({ account }: { account: Account }) {
  return (
    <tr data-testid="grid-row">
      <td className="grid__id">{account._id}</td>
      <td>{formatText(account.email)}</td>
      <td>{formatText(account.name?.first)}</td>
      <td>{formatText(account.name?.last)}</td>
      <td>
        <StateBadge state={account.state} locked={account.locked === true} />
      </td>
      <td className="grid__time" title={account.created}>
        {formatTimestamp(account.created)}
      </td>
    </tr>
  );
}

function StateBadge({ state, locked }: { state: string | undefined; locked: boolean }) {
  return (
    <span className="badges">
      <span className={`badge badge--${state === 'verified' ? 'ok' : 'muted'}`}>{formatText(state)}</span>
      {locked && <span className="badge badge--warn">locked</span>}
    </span>
  );
}

function EmptyRow({ onFirstPage, searched }: { onFirstPage: (() => void) | null; searched: boolean }) {
  return (
    <tr data-testid="grid-empty">
      <td colSpan={COLUMNS.length} className="grid__status">
        {onFirstPage ? 'No accounts on this page.' : searched ? 'No account matches the search.' : 'No accounts yet.'}
        {onFirstPage && (
          <button type="button" className="button button--link" onClick={onFirstPage}>
            Go to the first page
          </button>
        )}
      </td>
    </tr>
  );
}

function StatusRow({ children }: { children: ReactNode }) {
  return (
    <tr>
      <td colSpan={COLUMNS.length} className="grid__status">
        {children}
      </td>
    </tr>
  );
}
