import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Readable, Writable } from 'node:stream';
import { createHarness, listQuery, TestClient, type Harness } from '../testing/harness.js';
import { importNdjson } from './file-import.js';
import { exportQuery } from './file-export.js';
import { selectionOf } from './expand.js';
import { parseListQuery } from '../../../src-shared/query/parse.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => h.close());

const org = () => h.svc.orgs.byCode('demo')!;
const def = (name: string) => h.svc.defs.byName(org().id, name)!;

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return { stream, text: () => text };
}

describe('import', () => {
  it('loads good lines whole, reports bad ones by number, and keeps _id/created/updated', async () => {
    const lines = [
      JSON.stringify({ _id: 'aaaaaaaaaaaaaaaaaaaaaaa1', c_title: 'first', created: '2020-01-02T03:04:05.006Z' }),
      '{not json',
      JSON.stringify({ c_title: 'bad status', c_status: 'maybe' }),
      '',
      JSON.stringify({ c_title: 'second', c_status: 'open', object: 'c_conversation', access: 8 }),
      JSON.stringify({ _id: 'aaaaaaaaaaaaaaaaaaaaaaa1', c_title: 'duplicate id' }),
      JSON.stringify([1, 2]),
    ];
    const report = await importNdjson(h.svc, org(), def('c_conversation'), Readable.from(lines.join('\n')));
    expect(report).toMatchObject({ imported: 2, failed: 4 });
    expect(report.errors.map((e) => e.line)).toEqual([2, 3, 6, 7]);
    expect(report.errors[1]!.reason).toContain('c_status');
    const stored = h.svc.store.get(org().id, def('c_conversation'), 'aaaaaaaaaaaaaaaaaaaaaaa1');
    expect(stored?.doc).toMatchObject({ c_title: 'first', created: '2020-01-02T03:04:05.006Z' });
    expect(h.svc.store.count(org().id, def('c_conversation'))).toBe(2);
  });

  it('checks each line against the record rules of its type, as every write does (issue 39)', async () => {
    // Loaded straight into the store before, these were stored unchecked: a script that does not
    // compile, a view that does not, a deployment whose target secret stayed in clear text.
    const scripts = await importNdjson(
      h.svc,
      org(),
      def('script'),
      Readable.from(
        [
          JSON.stringify({ name: 'broken', type: 'library', script: 'return (' }),
          JSON.stringify({ name: 'fine', type: 'library', script: 'return 1' }),
        ].join('\n'),
      ),
    );
    expect(scripts).toMatchObject({ imported: 1, failed: 1, errors: [{ line: 1 }] });
    expect(scripts.errors[0]!.reason).toMatch(/^script: Line \d+, column \d+: SyntaxError/);
    const views = await importNdjson(
      h.svc,
      org(),
      def('view'),
      Readable.from(JSON.stringify({ name: 'nowhere', sourceObject: 'c_nothing' })),
    );
    expect(views).toMatchObject({ imported: 0, failed: 1 });
    expect(views.errors[0]!.reason).toContain('sourceObject');
    const deployment = {
      name: 'to_other',
      targetKind: 'url',
      targetOrg: 'other',
      targetUrl: 'http://127.0.0.1:9/',
      targetAppKey: 'abc',
      targetSecret: 'abcdefghijklmnop0123',
      manifest: JSON.stringify({ includes: ['*'] }),
    };
    const deployments = await importNdjson(h.svc, org(), def('deployment'), Readable.from(JSON.stringify(deployment)));
    expect(deployments).toMatchObject({ imported: 1, failed: 0 });
    const [stored] = [...h.svc.store.iterate(org().id, def('deployment'), { sort: [], skip: 0, limit: 0 })];
    expect(String(stored!.doc.targetSecret)).toMatch(/^v1\./);
  });

  it('reports a line of invalid UTF-8 by number instead of storing U+FFFD (issue 38 low 6)', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"c_title":"bad '),
      Buffer.from([0xe2, 0x28, 0xa1]),
      Buffer.from('"}\n{"c_title":"good"}\n'),
    ]);
    const report = await importNdjson(h.svc, org(), def('c_conversation'), Readable.from([bytes]));
    expect(report).toMatchObject({
      imported: 1,
      failed: 1,
      errors: [{ line: 1, reason: 'the line is not valid UTF-8' }],
    });
    const titles = [...h.svc.store.iterate(org().id, def('c_conversation'), { sort: [], skip: 0, limit: 0 })].map(
      (r) => r.doc.c_title,
    );
    expect(titles).toEqual(['good']);
  });
});

describe('import and the planner statistics', () => {
  it('leaves sqlite_stat1 describing the table as loaded, not as the 2-row table it was (issue 43)', async () => {
    const table = h.svc.store.table(org().id, def('c_conversation'));
    await importNdjson(h.svc, org(), def('c_conversation'), Readable.from('{"c_title":"a"}\n{"c_title":"b"}\n'));
    h.svc.db.exec('ANALYZE');
    const statRows = () =>
      (h.svc.db.prepare('SELECT stat FROM sqlite_stat1 WHERE tbl = ?').all(table) as { stat: string }[]).map((r) =>
        Number(r.stat.split(' ')[0]),
      );
    expect(statRows()).toContain(2);
    const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ c_title: `t${i}`, c_status: 'open' }));
    expect(await importNdjson(h.svc, org(), def('c_conversation'), Readable.from(lines.join('\n')))).toMatchObject({
      imported: 300,
    });
    expect(new Set(statRows())).toEqual(new Set([302]));
  });
});

describe('export', () => {
  it('writes exactly the records of the query (where, sort, paths) as NDJSON and CSV', async () => {
    const admin = new TestClient(h);
    await admin.login();
    for (const [t, s] of [
      ['b, with comma', 'open'],
      ['a "quoted"', 'open'],
      ['c', 'closed'],
    ]) {
      await admin.post('/c_conversations', { c_title: t, c_status: s });
    }
    const args = { where: { c_status: 'open' }, sort: { c_title: 1 }, paths: ['c_title'] };
    const api = (await admin.get(`/c_conversations?${listQuery(args)}`)).json().data;
    const query = parseListQuery(
      { where: JSON.stringify(args.where), sort: JSON.stringify(args.sort), paths: args.paths },
      def('c_conversation'),
    );
    const nd = sink();
    expect(await exportQuery(h.svc, org(), def('c_conversation'), query, 'ndjson', nd.stream)).toBe(2);
    const exported = nd
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(exported).toEqual(api.map((r: Record<string, unknown>) => ({ ...r, access: r.access })));
    const csv = sink();
    await exportQuery(h.svc, org(), def('c_conversation'), query, 'csv', csv.stream);
    expect(csv.text()).toBe(`_id,c_title\r\n${api[0]._id},"a ""quoted"""\r\n${api[1]._id},"b, with comma"\r\n`);
  });

  it('expands references (every referenced object once per batch), as the API does for an administrator', async () => {
    const admin = new TestClient(h);
    await admin.login();
    await admin.post('/c_conversations', { c_title: 'x', c_status: 'open' });
    const args = { expand: ['owner'], paths: ['c_title', 'owner.email'] };
    const api = (await admin.get(`/c_conversations?${listQuery(args)}`)).json().data;
    expect(api[0].owner).toMatchObject({ email: 'admin@example.test' });
    const query = parseListQuery({ paths: ['c_title', 'owner'] }, def('c_conversation'));
    const selection = selectionOf(h.svc, org(), def('c_conversation'), args);
    const nd = sink();
    await exportQuery(h.svc, org(), def('c_conversation'), query, 'ndjson', nd.stream, undefined, selection.expand);
    const exported = nd
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(exported).toEqual(api);
  });
});
