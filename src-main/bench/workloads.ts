/**
 * The five workloads of the speed benchmark, as the service's own URLs and as the hand-written SQL
 * the floor answers them with. Both sides must give the same answers.
 */
export const Q1_WHERE = { 'name.last': { $regex: '/^s/i' } };
export const Q1_SORT = { 'name.last': 1, 'name.first': 1 };
export const Q3_RANGE = { from: '2023-01-01T00:00:00.000Z', to: '2023-07-01T00:00:00.000Z' };

const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

export const serviceUrls = {
  q1: () => `/accounts?where=${enc(Q1_WHERE)}&sort=${enc(Q1_SORT)}&limit=100`,
  q2: (after?: string) =>
    `/accounts?sort=${enc({ _id: 1 })}&limit=1000${after ? `&where=${enc({ _id: { $gt: after } })}` : ''}`,
  q3: () =>
    `/accounts?where=${enc({ $and: [{ created: { $gt: Q3_RANGE.from } }, { created: { $lt: Q3_RANGE.to } }] })}&sort=${enc({ created: -1 })}&limit=100`,
  q4: () => `/accounts?sort=${enc({ 'name.last': 1 })}&skip=300&limit=100`,
  q5: (id: string) => `/accounts/${id}`,
};

export const floorUrls = {
  q1: () => '/q1',
  q2: (after?: string) => `/q2${after ? `?after=${after}` : ''}`,
  q3: () => '/q3',
  q4: () => '/q4',
  q5: (id: string) => `/q5?id=${id}`,
};

const last = "json_extract(doc, '$.name.last')";
const first = "json_extract(doc, '$.name.first')";
const created = "json_extract(doc, '$.created')";

/** Hand-written SQL over the same table and indexes (`table` is the org's account table). */
export function floorSql(table: string) {
  return {
    // The best hand-written plan: one ordered walk of the (last, first) index per case variant of
    // the prefix, merged — not an OR of ranges, which reads and sorts every match.
    q1: ['S', 's', 'ſ']
      .map(
        (p, i) =>
          `SELECT * FROM (SELECT _id, doc, ${last} AS l, ${first} AS f FROM "${table}" WHERE ${last} >= '${p}' AND ${last} < '${['T', 't', 'ƀ'][i]}'
           AND re_match('^s', 'i', ${last}) ORDER BY ${last}, ${first}, _id LIMIT 101)`,
      )
      .join(' UNION ALL ')
      .replace(/^/, 'SELECT _id, doc FROM (')
      .concat(') ORDER BY l, f, _id LIMIT 101'),
    q2first: `SELECT _id, doc FROM "${table}" ORDER BY _id LIMIT 1001`,
    q2: `SELECT _id, doc FROM "${table}" WHERE _id > ? ORDER BY _id LIMIT 1001`,
    q3: `SELECT _id, doc FROM "${table}" WHERE ${created} > ? AND ${created} < ? ORDER BY ${created} DESC, _id DESC LIMIT 101`,
    q4: `SELECT _id, doc FROM "${table}" ORDER BY ${last}, _id LIMIT 101 OFFSET 300`,
    q5: `SELECT _id, doc FROM "${table}" WHERE _id = ?`,
  };
}
