/**
 * Keyset paging (walk.ts, query/row-filters.ts): pages that continue after the last row's sort
 * keys read exactly the records one page of the whole result holds, in its order, whatever the
 * sort (NULLs, ties, both directions) and page size; a later page reads no OFFSET; a record
 * written between pages neither repeats one nor hides one.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';
import { FaultError } from '../../../src-shared/faults.js';
import { createHarness, type Harness } from '../testing/harness.js';
import type { Org } from '../orgs/orgs.js';
import type { Caller } from '../access/caller.js';
import { readPage, walkRecords } from './walk.js';

let h: Harness;
let org: Org;
let def: ObjectDef;

const admin: Caller = {
  accountId: 'a'.repeat(24),
  roles: new Set(),
  orgAdmin: true,
  skipAcl: false,
  bypassCreateAcl: false,
};

beforeAll(async () => {
  h = await createHarness();
  org = h.svc.orgs.byCode('demo')!;
  h.svc.defs.save(org.id, {
    name: 'c_item',
    collection: 'c_items',
    label: 'Item',
    custom: true,
    properties: [
      { name: 'c_group', type: 'String', indexed: true, custom: true },
      { name: 'c_n', type: 'Number', indexed: true, custom: true },
    ],
  } as ObjectDef);
  def = h.svc.defs.byName(org.id, 'c_item')!;
});
afterAll(async () => h.close());

const SORTS = ['', '{"c_group":1}', '{"c_group":-1}', '{"c_group":1,"c_n":-1}', '{"c_n":-1,"c_group":1}', '{"_id":1}'];
const item = fc.record({
  group: fc.constantFrom(undefined, 'a', 'b', 'c'),
  n: fc.option(fc.integer({ min: -2, max: 2 }), { nil: undefined }),
});

function fill(items: { group: string | undefined; n: number | undefined }[]) {
  h.svc.store.dropCollection(org.id, def);
  for (const it of items) {
    h.svc.store.insert(org.id, def, {
      ...(it.group !== undefined ? { c_group: it.group } : {}),
      ...(it.n !== undefined ? { c_n: it.n } : {}),
    });
  }
}

/** Every page of `size` after the first continues from the one before; the ids in order. */
function pagedIds(sort: string, skip: number, size: number): string[] {
  const ids: string[] = [];
  let after: unknown[] | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const query = parseListQuery({ ...(sort ? { sort } : {}), skip: String(skip), limit: String(size) }, def);
    const page = readPage(h.svc, org, admin, def, query, after);
    ids.push(...page.data.map((r) => String(r._id)));
    if (!page.hasMore) return ids;
    after = page.next;
  }
  throw new Error('the walk did not end');
}

describe('keyset pages', () => {
  it('read what one page of the whole result holds, in its order, for any sort and page size', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 40 }),
        fc.constantFrom(...SORTS),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 7 }),
        (items, sort, skip, size) => {
          fill(items);
          const whole = parseListQuery({ ...(sort ? { sort } : {}), skip: String(skip), limit: '1000' }, def);
          const expected = readPage(h.svc, org, admin, def, whole).data.map((r) => String(r._id));
          expect(pagedIds(sort, skip, size)).toEqual(expected);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('walk every match without an OFFSET past the first page', () => {
    fill(Array.from({ length: 30 }, (_, i) => ({ group: ['a', 'b', undefined][i % 3], n: i % 4 })));
    const offsets: unknown[] = [];
    const store = h.svc.store;
    const list = store.list.bind(store);
    store.list = ((orgId, d, query, filters, page) => {
      offsets.push({ skip: query.skip, continued: page?.after !== undefined });
      return list(orgId, d, query, filters, page);
    }) as typeof store.list;
    try {
      const query = parseListQuery({ sort: '{"c_group":1}', skip: '2', limit: '7' }, def);
      const page = readPage(h.svc, org, admin, def, query);
      const next = readPage(h.svc, org, admin, def, query, page.next);
      expect(offsets).toEqual([
        { skip: 2, continued: false },
        { skip: 0, continued: true },
      ]);
      expect(next.data.map((r) => r._id)).not.toContain(page.data[0]!._id);
      const walked = [...walkRecords(h.svc, org, admin, def, parseListQuery({ sort: '{"c_group":1}' }, def))];
      expect(walked).toHaveLength(30);
    } finally {
      store.list = list;
    }
  });

  it('neither repeat nor hide a record when one is written before the position between pages', () => {
    fill(Array.from({ length: 10 }, (_, i) => ({ group: 'b', n: i })));
    const query = parseListQuery({ sort: '{"c_n":1}', limit: '4' }, def);
    const first = readPage(h.svc, org, admin, def, query);
    h.svc.store.insert(org.id, def, { c_group: 'a', c_n: -1 }); // sorts before every record read
    const ids = [...first.data.map((r) => r._id)];
    let after = first.next;
    for (
      let page = readPage(h.svc, org, admin, def, query, after);
      ;
      page = readPage(h.svc, org, admin, def, query, after)
    ) {
      ids.push(...page.data.map((r) => r._id));
      if (!page.hasMore) break;
      after = page.next;
    }
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
  });

  it('refuse a continuation that is not one scalar per sort key (it comes back from scripts)', () => {
    const query = parseListQuery({ sort: '{"c_group":1}' }, def);
    for (const bad of [[], ['a'], ['a', 'b', 'c'], [{ x: 1 }, 'b'], [Number.NaN, 'b']]) {
      let caught: unknown;
      try {
        readPage(h.svc, org, admin, def, query, bad);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(FaultError);
      expect((caught as FaultError).fault.errCode).toBe('service.invalidArgument.query');
    }
  });
});
