import { useState } from 'react';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import type { ListPage } from '../../../api/types';
import type { ObjectRecord } from '../../../api/records';
import { checkSortText, checkWhereText } from '../query-builder/validate-text';
import { Pager } from '../../../components/Pager';
import { Cell, cellTitle } from '../../../components/result-grid/Cell';
import { allColumns, defaultColumnPaths } from '../../../components/result-grid/columns';
import { valueAt } from '../../../components/result-grid/encode';

/** The arguments of one list property, sent prefixed (`connections.where`, docs/query-semantics.md). */
export interface ListPropertyArgs {
  where: string;
  sort: string;
  skip: number;
  limit: number;
}

export const DEFAULT_LIST_ARGS: ListPropertyArgs = { where: '', sort: '', skip: 0, limit: 10 };
const LIST_PAGE_SIZES = [5, 10, 25, 50, 100];

interface ListPropertyPanelProps {
  name: string;
  def: ObjectDef | undefined;
  page: ListPage<ObjectRecord> | undefined;
  args: ListPropertyArgs;
  onArgs: (args: ListPropertyArgs) => void;
  org: string | undefined;
}

/** A list property (e.g. `connections`) as its own paged list with its own where and sort. */
export function ListPropertyPanel({ name, def, page, args, onArgs, org }: ListPropertyPanelProps) {
  const [where, setWhere] = useState(args.where);
  const [sort, setSort] = useState(args.sort);
  const whereCheck = checkWhereText(where, def);
  const sortCheck = checkSortText(sort, def);
  const columns = def ? allColumns(def).filter((c) => defaultColumnPaths(allColumns(def)).includes(c.path)) : [];
  const apply = () => {
    if (whereCheck.ok && sortCheck.ok) onArgs({ ...args, where: where.trim(), sort: sort.trim(), skip: 0 });
  };
  return (
    <section className="list-prop" data-testid={`list-property-${name}`} aria-label={`List property ${name}`}>
      <h3 className="list-prop__title">
        <code>{name}</code> <span className="qb-hint">{def ? def.name : ''} list</span>
      </h3>
      <form
        className="list-prop__args"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <input
          className={whereCheck.ok ? 'input input--mono' : 'input input--mono input--invalid'}
          aria-label={`${name}.where`}
          placeholder={`${name}.where  {"access": {"$gte": 3}}`}
          data-testid="list-where"
          value={where}
          onChange={(e) => setWhere(e.target.value)}
        />
        <input
          className={sortCheck.ok ? 'input input--mono' : 'input input--mono input--invalid'}
          aria-label={`${name}.sort`}
          placeholder={`${name}.sort  {"_id": 1}`}
          data-testid="list-sort"
          value={sort}
          onChange={(e) => setSort(e.target.value)}
        />
        <button type="submit" className="button button--secondary button--small" data-testid="list-apply">
          Apply
        </button>
      </form>
      {!whereCheck.ok && <p className="qb-inline-error">{whereCheck.problem.message}</p>}
      {!sortCheck.ok && <p className="qb-inline-error">{sortCheck.problem.message}</p>}
      {!page ? (
        <p className="qb-hint">Loading…</p>
      ) : page.items.length === 0 ? (
        <p className="qb-hint" data-testid="list-empty">
          No {name} {args.where ? 'match' : 'yet'}.
        </p>
      ) : (
        <div className="list-prop__table">
          <table className="grid">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.path} scope="col">
                    {c.path}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {page.items.map((item) => (
                <tr key={item._id} data-testid="list-row">
                  {columns.map((c) => (
                    <td key={c.path} title={cellTitle(valueAt(item, c.path))}>
                      <Cell column={c} value={valueAt(item, c.path)} org={org} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        testId="list"
        small
        range={page && page.items.length > 0 ? `Rows ${args.skip + 1}–${args.skip + page.items.length}` : '\u00a0'}
        pageSize={{
          value: args.limit,
          options: [...new Set([...LIST_PAGE_SIZES, args.limit])].sort((a, b) => a - b),
          label: 'Rows',
          onChange: (limit) => onArgs({ ...args, limit, skip: 0 }),
        }}
        canPrevious={args.skip > 0}
        canNext={Boolean(page?.hasMore)}
        onPrevious={() => onArgs({ ...args, skip: Math.max(0, args.skip - args.limit) })}
        onNext={() => onArgs({ ...args, skip: args.skip + args.limit })}
      />
    </section>
  );
}

/** `connections.where`, `connections.sort`, … for every list property. */
export function prefixedListArgs(argsByProperty: Record<string, ListPropertyArgs>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, args] of Object.entries(argsByProperty)) {
    if (args.where) out[`${name}.where`] = args.where;
    if (args.sort) out[`${name}.sort`] = args.sort;
    if (args.skip) out[`${name}.skip`] = args.skip;
    out[`${name}.limit`] = args.limit;
  }
  return out;
}
