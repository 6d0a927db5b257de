/** A view's declared variables: defaults fill missing arguments, and are checked when the view is saved. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createHarness, TestClient, type Harness } from '../testing/harness.js';

let h: Harness;
let admin: TestClient;

beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
  for (const [title, status] of [
    ['Smith', 'open'],
    ['Smyth', 'closed'],
    ['Jones', 'open'],
    ['Brown', 'closed'],
  ]) {
    expect((await admin.post('/c_conversations', { c_title: title, c_status: status })).statusCode).toBe(200);
  }
});
afterEach(async () => h.close());

const view = (variables: unknown, extra: Record<string, unknown> = {}) => ({
  name: 'by_title',
  sourceObject: 'c_conversation',
  principal: ADMIN_EMAIL,
  acl: [{ type: 'account', target: '*' }],
  query: [
    { name: 'where', value: '{"c_title": {"$regex": "{{title_regex}}"}, "c_status": "{{status}}"}' },
    { name: 'sort', value: '{"c_title": {{order}}}' },
  ],
  variables,
  ...extra,
});
const DECLARED = [
  { name: 'title_regex', defaultValue: '/^Sm/', description: 'A regex written /pattern/flags.' },
  { name: 'status', defaultValue: 'open' },
  { name: 'order', defaultValue: '1' },
];

const titles = async (url: string) => {
  const res = await admin.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { c_title: string }[] }).data.map((r) => r.c_title);
};

describe('declared variables when a view runs', () => {
  it('takes the default for a missing argument; an explicit argument wins', async () => {
    const saved = await admin.post('/views', view(DECLARED));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().variables).toEqual(DECLARED);
    expect(await titles('/views/by_title')).toEqual(['Smith']);
    expect(await titles('/views/by_title?status=closed')).toEqual(['Smyth']);
    expect(await titles(`/views/by_title?title_regex=${encodeURIComponent('/^S/')}&status=closed`)).toEqual(['Smyth']);
    expect(await titles(`/views/by_title?title_regex=${encodeURIComponent('/h$/')}&order=-1`)).toEqual(['Smith']);
    expect(await titles(`/views/by_title?title_regex=${encodeURIComponent('/o/')}&order=-1&status=closed`)).toEqual([
      'Brown',
    ]);
  });

  it('answers invalidArgument.viewVariable for a missing argument without a default', async () => {
    const declared = [{ name: 'title_regex', description: 'No default.' }, DECLARED[1], DECLARED[2]];
    expect((await admin.post('/views', view(declared))).statusCode).toBe(200);
    expect((await admin.get('/views/by_title')).json()).toMatchObject({
      errCode: 'service.invalidArgument.viewVariable',
      path: 'title_regex',
    });
    expect(await titles(`/views/by_title?title_regex=${encodeURIComponent('/n/')}`)).toEqual(['Jones']);
  });

  it('never lets one run’s defaults or arguments reach another (runs sent in parallel, one cached compile)', async () => {
    expect((await admin.post('/views', view(DECLARED))).statusCode).toBe(200);
    const cases: [string, string[]][] = [
      ['/views/by_title', ['Smith']],
      ['/views/by_title?status=closed', ['Smyth']],
      [`/views/by_title?title_regex=${encodeURIComponent('/^[JB]/')}`, ['Jones']],
      [`/views/by_title?title_regex=${encodeURIComponent('/^[JB]/')}&status=closed`, ['Brown']],
      [`/views/by_title?title_regex=${encodeURIComponent('/./')}&order=-1`, ['Smith', 'Jones']],
    ];
    const compiles = h.svc.views.compiles;
    const runs = Array.from({ length: 40 }, (_, i) => cases[i % cases.length]!);
    const answers = await Promise.all(runs.map(([url]) => titles(url)));
    answers.forEach((got, i) => expect(got, runs[i]![0]).toEqual(runs[i]![1]));
    expect(h.svc.views.compiles - compiles).toBe(1);
    // and the defaults stored with the view are as saved
    expect((await admin.get('/views?where={"name":"by_title"}')).json().data[0].variables).toEqual(DECLARED);
  });
});

describe('declared variables when a view is saved', () => {
  it('refuses a default that is not a valid argument, at its own spot', async () => {
    const bad = [DECLARED[0], DECLARED[1], { name: 'order', defaultValue: 'sideways' }];
    for (const [variables, at] of [
      [[{ name: 'title_regex', defaultValue: 'Sm' }], 'variables[0].defaultValue'],
      [[{ name: 'title_regex', defaultValue: '/(/' }], 'variables[0].defaultValue'],
      [bad, 'variables[2].defaultValue'],
    ] as const) {
      const res = await admin.post('/views', view(variables));
      expect(res.json(), JSON.stringify(variables)).toMatchObject({ errCode: 'service.validation.view', path: at });
    }
    expect((await admin.post('/views', view(bad))).json().reason).toContain('sideways');
    // nothing was saved
    expect((await admin.get('/views')).json().data).toEqual([]);
  });

  it('refuses a name the components do not use, and a name declared twice', async () => {
    expect(
      (await admin.post('/views', view([DECLARED[1], { name: 'stauts', defaultValue: 'open' }]))).json(),
    ).toMatchObject({
      errCode: 'service.validation.view',
      path: 'variables[1].name',
    });
    expect((await admin.post('/views', view([DECLARED[1], { name: 'status' }]))).json()).toMatchObject({
      errCode: 'service.validation.view',
      path: 'variables[1].name',
    });
    // on update too: a PATCH that leaves a declared variable unused by the components is refused
    const id = (await admin.post('/views', view([DECLARED[1]]))).json()._id as string;
    const patched = await admin.patch(`/views/${id}`, {
      query: [{ name: 'where', value: '{"c_title": "{{title}}"}' }],
    });
    expect(patched.json()).toMatchObject({ errCode: 'service.validation.view', path: 'variables[0].name' });
  });

  it('bounds the lengths of what is declared', async () => {
    const long = [{ name: 'status', defaultValue: 'open', description: 'x'.repeat(501) }];
    expect((await admin.post('/views', view(long))).json()).toMatchObject({ errCode: 'service.validation' });
  });
});

describe('declared variables of an aggregating view (group and pipeline components)', () => {
  const grouped = (variables: unknown) => ({
    ...view(variables),
    query: [
      { name: 'where', value: '{"c_status": "{{status}}"}' },
      { name: 'group', value: '{"_id": "c_status", "n": {"$count": "_id"}}' },
    ],
  });
  const piped = (variables: unknown) => ({
    ...view(variables),
    query: [{ name: 'pipeline', value: '[{"$match": {"c_status": "{{status}}"}}, {"$count": "n"}]' }],
  });
  const data = async (url: string) => {
    const res = await admin.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: Record<string, unknown>[] }).data.map(({ object: _object, ...rest }) => rest);
  };

  it('takes the default for a missing argument in a group or a pipeline run; an explicit argument wins', async () => {
    const group = await admin.post('/views', grouped([{ name: 'status', defaultValue: 'open' }]));
    expect(group.statusCode, group.body).toBe(200);
    expect(await data('/views/by_title')).toEqual([{ _id: 'open', n: 2 }]);
    expect(await data('/views/by_title?status=closed')).toEqual([{ _id: 'closed', n: 2 }]);
    const pipe = await admin.post('/views', { ...piped([{ name: 'status', defaultValue: 'closed' }]), name: 'piped' });
    expect(pipe.statusCode, pipe.body).toBe(200);
    expect(await data('/views/piped')).toEqual([{ n: 2 }]);
    expect(await data('/views/piped?status=nobody')).toEqual([]);
  });

  it('refuses a name the components do not use, and a default the aggregation does not parse, when saved', async () => {
    expect((await admin.post('/views', grouped([{ name: 'stauts', defaultValue: 'open' }]))).json()).toMatchObject({
      errCode: 'service.validation.view',
      path: 'variables[0].name',
    });
    const badDefault = {
      ...view([{ name: 'n', defaultValue: 'many' }]),
      query: [{ name: 'pipeline', value: '[{"$limit": {{n}}}]' }],
    };
    const res = await admin.post('/views', badDefault);
    expect(res.json()).toMatchObject({ errCode: 'service.validation.view', path: 'variables[0].defaultValue' });
    expect((await admin.get('/views')).json().data).toEqual([]);
  });
});
