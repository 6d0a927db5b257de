/**
 * Hostile list arguments: `where`, `sort`, `skip`, `limit`, `paths[]` on collections, and the same
 * arguments prefixed for a list property (`connections.where`, …) on one instance. Property-based
 * (fast-check, fixed seed in CI): whatever the text, the answer is a list envelope or a 4xx fault,
 * never a 5xx, and no record changes. Known-hostile corpora (prototype keys, NUL bytes, SQL
 * metacharacters in paths, catastrophic regexes) must be refused or answered quickly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { listQuery } from '../testing/harness.js';
import {
  expectClientFault,
  expectListOrClientFault,
  expectPrototypeClean,
  fuzzParams,
  hostileJson,
  hostileKey,
  hostileWorld,
  type HostileWorld,
} from './fixture.js';

let w: HostileWorld;
let before: string;
beforeAll(async () => {
  w = await hostileWorld();
  before = w.fingerprint();
});
afterAll(async () => {
  // No list query, however hostile, may have written anything.
  expect(w.fingerprint()).toBe(before);
  expectPrototypeClean();
  await w.h.close();
});

const enc = encodeURIComponent;
const INDEXED = ['_id', 'email', 'name.last', 'name.first', 'created', 'roles', 'locked', 'state', 'c_enrollments'];
const OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$size', '$all'];

/** Structurally plausible conditions (most parse, many are wrong in type or shape). */
const plausibleWhere: fc.Arbitrary<unknown> = fc.letrec<{ cond: unknown }>((tie) => ({
  cond: fc.oneof(
    { depthSize: 'small' },
    fc.dictionary(
      fc.constantFrom(...INDEXED),
      fc.oneof(hostileJson, fc.dictionary(fc.constantFrom(...OPERATORS), hostileJson, { maxKeys: 2 })),
      { maxKeys: 2 },
    ),
    fc.record({ $and: fc.array(tie('cond'), { maxLength: 3 }) }),
    fc.record({ $or: fc.array(tie('cond'), { maxLength: 3 }) }),
  ),
})).cond;

/** Any text for a where or sort: JSON of hostile values, plausible conditions, or raw junk. */
const jsonishText = fc.oneof(
  plausibleWhere.map((v) => JSON.stringify(v)),
  hostileJson.map((v) => JSON.stringify(v) ?? 'null'),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('{', '{"a":', '[]', 'null', '{"email":{"$regex":"/(/"}}', '{"$where":"1"}', '{}'),
);

const numberText = fc.oneof(
  fc.integer({ min: -5, max: 2_000_000 }).map(String),
  fc.constantFrom('', ' ', '1e3', '0x10', '-0', '+1', '1.5', 'NaN', 'Infinity', '9'.repeat(400), '10\u0000', '１０'),
  fc.string({ maxLength: 8 }),
);

const pathText = fc.oneof(
  hostileKey,
  fc.constantFrom('name', 'name.first', 'email', 'c_enrollments.c_course', 'connections', 'connections.access'),
);

const listArgs = fc.record(
  {
    where: jsonishText,
    sort: fc.oneof(jsonishText, hostileKey),
    skip: numberText,
    limit: numberText,
    paths: fc.array(pathText, { maxLength: 4 }),
  },
  { requiredKeys: [] },
);

/** Query string of raw (already textual) arguments, every value URL-encoded. */
function rawQuery(
  args: { where?: string; sort?: string; skip?: string; limit?: string; paths?: string[] },
  prefix = '',
) {
  const parts: string[] = [];
  for (const name of ['where', 'sort', 'skip', 'limit'] as const) {
    const value = args[name];
    if (value !== undefined) parts.push(`${prefix}${name}=${enc(value)}`);
  }
  for (const p of args.paths ?? []) parts.push(`${prefix}paths[]=${enc(p)}`);
  return parts.join('&');
}

describe('fuzzed list arguments', () => {
  it('answer a list or a 4xx fault on every collection', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('accounts', 'c_conversations', 'connections'), listArgs, async (col, args) => {
        const url = `/${col}?${rawQuery(args)}`;
        expectListOrClientFault(await w.admin.get(url), url);
      }),
      fuzzParams(),
    );
  });

  it('answer an instance or a 4xx fault for list-property arguments (connections.where, …)', async () => {
    await fc.assert(
      fc.asyncProperty(listArgs, fc.array(pathText, { maxLength: 3 }), async (args, paths) => {
        const url = `/c_patientfiles/${w.ids.patientfile}?${rawQuery(args, 'connections.')}&${rawQuery({ paths })}`;
        const res = await w.admin.get(url);
        if (res.statusCode === 200) {
          const body = res.json();
          expect(body._id, url).toBe(w.ids.patientfile);
          if (body.connections !== undefined) expect(body.connections, url).toMatchObject({ object: 'list' });
        } else {
          expectClientFault(res, url);
        }
      }),
      fuzzParams(),
    );
  });

  it('answer the same through a scope-limited token (the scope guard sees hostile paths too)', async () => {
    const me = (await w.admin.get('/accounts/me')).json()._id as string;
    const minted = await w.admin.post(`/accounts/${me}/tokens`, {
      app: w.h.consoleAppKey,
      scope: ['object.read.account.*.name'],
    });
    const bearer = { authorization: `Bearer ${minted.json().data}` };
    await fc.assert(
      fc.asyncProperty(listArgs, async (args) => {
        const url = `/accounts?${rawQuery(args)}`;
        const res = await w.h.server.inject({
          url: `/demo/v2${url}`,
          headers: { host: '127.0.0.1', ...bearer },
        });
        expectListOrClientFault(res, url);
      }),
      fuzzParams(),
    );
  });
});

describe('known-hostile arguments are refused with a fault', () => {
  const refused: [string, string][] = [];
  for (const key of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']) {
    refused.push([`where key ${key}`, listQuery({ where: { [key]: 1 } })]);
    refused.push([`where nested ${key}`, listQuery({ where: { name: { [key]: { polluted: 1 } } } })]);
    refused.push([`where path name.${key}`, listQuery({ where: { [`name.${key}`]: 'x' } })]);
    refused.push([`where in $and ${key}`, `where=${enc(`{"$and":[{"${key}":{"polluted":true}}]}`)}`]);
    refused.push([`sort ${key}`, listQuery({ sort: key })]);
    refused.push([`sort object ${key}`, `sort=${enc(`{"${key}":1}`)}`]);
    refused.push([`paths ${key}`, listQuery({ paths: [key] })]);
    refused.push([`paths name.${key}`, listQuery({ paths: [`name.${key}`] })]);
  }
  const sqlish = [
    "name.last'--",
    'name.last") OR 1=1 --',
    "email' OR '1'='1",
    "$.name') --",
    'name.last; DROP TABLE credentials',
    'name/*x*/.last',
    'name.last\u0000',
    'name\u0000.last',
    'email\\',
    'name[0]',
    'name..last',
    '"email"',
  ];
  for (const path of sqlish) {
    refused.push([`where path ${JSON.stringify(path)}`, listQuery({ where: { [path]: 'x' } })]);
    refused.push([`sort path ${JSON.stringify(path)}`, listQuery({ sort: { [path]: 1 } })]);
    refused.push([`paths ${JSON.stringify(path)}`, listQuery({ paths: [path] })]);
  }
  refused.push(['where with $where', listQuery({ where: { $where: 'sleep(1000)' } })]);
  refused.push(['where with $expr', listQuery({ where: { $expr: { $eq: [1, 1] } } })]);
  refused.push(['NUL inside JSON text', `where=${enc('{"email":\u0000"x"}')}`]);
  refused.push(['raw NUL byte in query string', 'limit=1%00']);
  refused.push(['skip below zero', 'skip=-1']);
  refused.push(['limit zero', 'limit=0']);
  refused.push(['limit above max', 'limit=1001']);
  refused.push(['skip above max', 'skip=500001']);
  refused.push(['where given twice', 'where=%7B%7D&where=%7B%7D']);
  refused.push(['nesting beyond the JSON limit', `where=${enc('['.repeat(5000) + ']'.repeat(5000))}`]);
  refused.push(['$and nesting beyond the limit', `where=${enc('{"$and":['.repeat(30) + '{}' + ']}'.repeat(30))}`]);
  refused.push([
    '$in beyond its limit',
    listQuery({ where: { email: { $in: Array.from({ length: 10_001 }, String) } } }),
  ]);
  refused.push(['a regex that RE2 cannot compile', listQuery({ where: { email: { $regex: '/(?<=a)b/' } } })]);
  refused.push(['a regex backreference', listQuery({ where: { email: { $regex: '/(a)\\1/' } } })]);
  refused.push(['a regex with an unknown flag', listQuery({ where: { email: { $regex: '/a/g' } } })]);
  refused.push(['a regex too long', listQuery({ where: { email: { $regex: `/${'a'.repeat(256)}/` } } })]);

  it.each(refused)('%s', async (_label, query) => {
    const res = await w.admin.get(`/accounts?${query}`);
    expectClientFault(res, query.slice(0, 200));
    const inInstance = await w.admin.get(
      `/c_patientfiles/${w.ids.patientfile}?${query.replace(/(^|&)(where|sort|skip|limit)=/g, '$1connections.$2=')}`,
    );
    if (!/paths/.test(query)) expectClientFault(inInstance, `connections.${query.slice(0, 200)}`);
  });
});

describe('$regex never stalls the service', () => {
  // Classic catastrophic-backtracking patterns; RE2 matches in linear time, so each answers fast.
  const corpus = [
    '/(a+)+$/',
    '/(a|a)*$/',
    '/(a|aa)+$/',
    '/(.*a){20}$/',
    '/^(\\w+\\s?)*$/',
    '/(x+x+)+y/',
    '/^(([a-z])+.)+[A-Z]([a-z])+$/',
    '/(a*)*b/',
    '/((a+)+)+b/i',
    '/(.*){1,32000}[bc]/',
  ];

  beforeAll(async () => {
    // Long subjects for the patterns to chew on.
    for (let i = 0; i < 20; i++) {
      const res = await w.admin.post('/c_conversations', { c_title: `${'a'.repeat(190)}!${i}` });
      expect(res.statusCode).toBe(200);
    }
    before = w.fingerprint();
  });

  // Against these subjects a backtracking engine would run for ages, past the test's timeout; on
  // RE2 each is answered (a list or a client fault) at once.
  it.each(corpus)('%s is answered', async (pattern) => {
    const res = await w.admin.get(`/c_conversations?${listQuery({ where: { c_title: { $regex: pattern } } })}`);
    expectListOrClientFault(res, pattern);
  });
});
