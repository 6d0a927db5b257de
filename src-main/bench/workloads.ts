/**
 * The workloads of the speed benchmark, as list arguments (shared with the query-plan test, so the
 * test checks the very SQL the bench times), as the service's URLs, and as the hand-written SQL the
 * floor answers them with. Both sides must give the same answers.
 */
export const Q1_WHERE = { 'name.last': { $regex: '/^s/i' } };
export const Q1_SORT = { 'name.last': 1, 'name.first': 1 };
export const Q3_RANGE = { from: '2023-01-01T00:00:00.000Z', to: '2023-07-01T00:00:00.000Z' };
export const WALK_PAGE = 1000;
/** QA: accounts per last name (issue 42), the first 100 groups. */
export const QA_PIPELINE = [{ $group: { _id: 'name.last', count: { $count: '_id' } } }];
/** QM: accounts registered since a date, per month of registration. */
export const QM_PIPELINE = [
  { $match: { created: { $gte: Q3_RANGE.from } } },
  { $group: { _id: { $month: 'created' }, count: { $sum: 1 } } },
];

/** Raw list arguments (query-string values) of each list workload, as a client sends them. */
export interface ListArgs {
  where?: string;
  sort: string;
  skip?: string;
  limit: string;
}

const json = (v: unknown) => JSON.stringify(v);

export const listArgs = {
  q1: (): ListArgs => ({ where: json(Q1_WHERE), sort: json(Q1_SORT), limit: '100' }),
  /** A page of the keyset walk: the first page without `where`, the next ones after the last `_id`. */
  q2: (after?: string): ListArgs => ({
    sort: json({ _id: 1 }),
    limit: String(WALK_PAGE),
    ...(after ? { where: json({ _id: { $gt: after } }) } : {}),
  }),
  q3: (): ListArgs => ({
    where: json({ $and: [{ created: { $gt: Q3_RANGE.from } }, { created: { $lt: Q3_RANGE.to } }] }),
    sort: json({ created: -1 }),
    limit: '100',
  }),
  q4: (): ListArgs => ({ sort: json({ 'name.last': 1 }), skip: '300', limit: '100' }),
};

const query = (a: ListArgs) =>
  Object.entries(a)
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join('&');

/** The service's URLs, relative to `/<org>/v2`. */
export const serviceUrls = {
  q1: () => `/accounts?${query(listArgs.q1())}`,
  q2: (after?: string) => `/accounts?${query(listArgs.q2(after))}`,
  q3: () => `/accounts?${query(listArgs.q3())}`,
  q4: () => `/accounts?${query(listArgs.q4())}`,
  q5: (id: string) => `/accounts/${id}`,
  qa: () => `/accounts?pipeline=${encodeURIComponent(json(QA_PIPELINE))}`,
  qm: () => `/accounts?pipeline=${encodeURIComponent(json(QM_PIPELINE))}`,
};

export const floorUrls = {
  q1: () => '/q1',
  q2: (after?: string) => `/q2${after ? `?after=${after}` : ''}`,
  q3: () => '/q3',
  q4: () => '/q4',
  q5: (id: string) => `/q5?id=${id}`,
  qa: () => '/qa',
  qm: () => '/qm',
};

/** Where the floor answers signed requests: the service's `/<org>/v2/` (the bench's org is `demo`). */
export const SIGNED_FLOOR_PREFIX = '/demo/v2/';

/**
 * The signed floor's URLs, relative to `/<org>/v2` like the service's: the floor's path with the
 * service's query string, so a version-2 signature canonicalises and signs the same query on both
 * sides (the floor reads only its own `after` and `id`).
 */
export const signedFloorUrls = {
  q1: () => floorUrls.q1() + serviceUrls.q1().slice('/accounts'.length),
  q2: (after?: string) => `/q2?${after ? `after=${after}&` : ''}${serviceUrls.q2(after).split('?')[1]!}`,
  q3: () => floorUrls.q3() + serviceUrls.q3().slice('/accounts'.length),
  q4: () => floorUrls.q4() + serviceUrls.q4().slice('/accounts'.length),
  q5: (id: string) => floorUrls.q5(id),
  qa: () => floorUrls.qa() + serviceUrls.qa().slice('/accounts'.length),
  qm: () => floorUrls.qm() + serviceUrls.qm().slice('/accounts'.length),
};

/** Whether an account table has key columns (`"k.name.last"`…), as tables made since the seventh session do. */
export function hasKeyColumns(db: { prepare(sql: string): { all(): unknown[] } }, table: string): boolean {
  return (db.prepare(`PRAGMA table_xinfo("${table}")`).all() as { name: string }[]).some(
    (c) => c.name === 'k.name.last',
  );
}

/**
 * Hand-written SQL, as someone who knows SQLite would write it for these five questions. The keys
 * are read exactly as the service's indexes are declared (`query/indexes.ts`: `(name.last,
 * name.first, _id)`, `(name.last, _id)`, `(created, _id)`, and `_id`'s UNIQUE index): the key
 * columns where the table has them, else the `json_extract` expressions the indexes are built
 * over. So SQLite serves them from those indexes: the floor needs no index of its own, and the
 * floor checks at start-up that each statement's plan uses the intended one (`FLOOR_PLANS`).
 */
export function floorSql(table: string, keyColumns: boolean) {
  const key = (path: string) => (keyColumns ? `"k.${path}"` : `json_extract(doc, '$.${path}')`);
  const [last, first, created] = [key('name.last'), key('name.first'), key('created')];
  return {
    // One ordered walk of the (last, first, _id) index per case variant of the prefix (`S`, `s` and
    // `ſ`, which folds to `s`), merged by SQLite in order (`MERGE (UNION ALL)`): it stops after 101
    // rows and sorts nothing. The ranges are exactly the matches of /^s/i, so no regex test on top
    // (the service's compiler leaves it out too: `prefixRangesAreExact`). The sort keys, which a
    // compound's ORDER BY must select, are dropped by an outer SELECT: returned, they would cost
    // more (three strings a row in JavaScript) than passing the rows through it (callgrind, 100k
    // seeded accounts: 1.40M instructions a call with them, 1.05M without). Until issue 43 this
    // copied the service's statement (each walk limited, their union sorted again), which hid the
    // cost of that shape.
    q1: `SELECT _id, doc FROM (${['S', 's', 'ſ']
      .map(
        (p, i) =>
          `SELECT _id, doc, ${last} AS l, ${first} AS f, _id AS i FROM "${table}" WHERE ${last} >= '${p}' AND ${last} < '${['T', 't', 'ƀ'][i]}'`,
      )
      .join(' UNION ALL ')} ORDER BY l, f, i LIMIT 101)`,
    q2first: `SELECT _id, doc FROM "${table}" ORDER BY _id LIMIT ${WALK_PAGE + 1}`,
    q2: `SELECT _id, doc FROM "${table}" WHERE _id > ? ORDER BY _id LIMIT ${WALK_PAGE + 1}`,
    q3: `SELECT _id, doc FROM "${table}" WHERE ${created} > ? AND ${created} < ? ORDER BY ${created} DESC, _id DESC LIMIT 101`,
    q4: `SELECT _id, doc FROM "${table}" ORDER BY ${last}, _id LIMIT 101 OFFSET 300`,
    q5: `SELECT _id, doc FROM "${table}" WHERE _id = ?`,
    // The aggregations as a hand would write them: GROUP BY the key column (SQLite walks the
    // (name.last, _id) index in order, counting), and the month cut from the ISO text.
    qa: `SELECT ${last} AS k, count(*) AS n FROM "${table}" GROUP BY 1 ORDER BY 1 LIMIT 101`,
    qm: `SELECT CAST(substr(${created}, 6, 2) AS INTEGER) AS k, count(*) AS n FROM "${table}" WHERE ${created} >= ? GROUP BY 1 ORDER BY 1 LIMIT 101`,
  };
}

/** A record as the API writes it, from a `[_id, doc]` row: the floor's splice (ids are hex, no escaping). */
export const floorRecordText = (r: readonly [id: string, doc: string]): string =>
  `{"_id":"${r[0]}","object":"account","access":8${r[1] === '{}' ? '}' : `,${r[1].slice(1)}`}`;

/** The names the service gives an account table's indexes (`query/indexes.ts`; `_id`'s is SQLite's). */
export const accountIndex = {
  id: (table: string) => `sqlite_autoindex_${table}_1`,
  lastFirst: (table: string) => `ix_${table}__c_name_last_name_first`,
  last: (table: string) => `ix_${table}__name_last`,
  created: (table: string) => `ix_${table}__created`,
};

/** The index each floor statement must use. */
export const FLOOR_PLANS: Record<keyof ReturnType<typeof floorSql>, (table: string) => string> = {
  q1: accountIndex.lastFirst,
  q2first: accountIndex.id,
  q2: accountIndex.id,
  q3: accountIndex.created,
  q4: accountIndex.last,
  q5: accountIndex.id,
  qa: accountIndex.last,
  qm: accountIndex.created,
};

/** A group row as the API writes it: `{_id, count, object}` (no `_id` for the group of missing keys). */
export const floorGroupText = (r: readonly [key: string | number | null, n: number]): string =>
  `{${r[0] === null ? '' : `"_id":${JSON.stringify(r[0])},`}"count":${r[1]},"object":"account"}`;
