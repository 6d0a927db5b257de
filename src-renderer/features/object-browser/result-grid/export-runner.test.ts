import { describe, expect, it } from 'vitest';
import type { ListRequest, ObjectRecord } from '../../../api/records';
import { blobSink, exportFileName, exportProgressText, runExport, type PageFetcher } from './export-runner';

const ids = Array.from({ length: 2500 }, (_, i) => i.toString(16).padStart(24, '0'));
const records: ObjectRecord[] = ids.map((id, i) => ({ _id: id, object: 'c_x', c_n: i % 7 }));

/** Serves the fake collection like the service would for the requests the export makes. */
function fakeService(): { fetch: PageFetcher; requests: ListRequest[] } {
  const requests: ListRequest[] = [];
  return {
    requests,
    fetch: async (request) => {
      requests.push(request);
      let rows = [...records];
      const idCond = (request.where?.$and as Record<string, { $lt?: string; $gt?: string }>[] | undefined)?.[1]?._id;
      if (idCond?.$lt) rows = rows.filter((r) => r._id < (idCond.$lt as string));
      if (idCond?.$gt) rows = rows.filter((r) => r._id > (idCond.$gt as string));
      const sort = request.sort ?? { _id: -1 };
      if (sort._id === -1) rows.reverse();
      rows = rows.slice(request.skip ?? 0);
      return { items: rows.slice(0, request.limit), hasMore: rows.length > request.limit };
    },
  };
}

describe('runExport', () => {
  it('pages by _id (keyset) and writes every record once, in order', async () => {
    const service = fakeService();
    const progress: number[] = [];
    const parts: string[] = [];
    await runExport(
      service.fetch,
      { where: { c_n: { $gte: 0 } }, paths: [] },
      'ndjson',
      [],
      (p) => progress.push(p.records),
      new AbortController().signal,
      (chunk) => parts.push(chunk),
    );
    const lines = parts.join('').trim().split('\n');
    expect(lines).toHaveLength(2500);
    expect((JSON.parse(lines[0] ?? '{}') as ObjectRecord)._id).toBe(ids[2499]);
    expect(progress).toEqual([1000, 2000, 2500]);
    expect(service.requests[1]?.where).toEqual({ $and: [{ c_n: { $gte: 0 } }, { _id: { $lt: ids[1500] } }] });
    expect(service.requests.every((r) => r.limit === 1000)).toBe(true);
  });

  it('pages by skip for other orders and writes CSV', async () => {
    const service = fakeService();
    const parts: string[] = [];
    await runExport(
      service.fetch,
      { sort: { c_n: 1 }, paths: ['c_n'] },
      'csv',
      ['_id', 'c_n'],
      () => undefined,
      new AbortController().signal,
      (chunk) => parts.push(chunk),
    );
    expect(service.requests.map((r) => r.skip)).toEqual([0, 1000, 2000]);
    const csv = parts.join('');
    expect(csv.startsWith('_id,c_n\r\n')).toBe(true);
    expect(csv.trim().split('\r\n')).toHaveLength(2501);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      runExport(
        fakeService().fetch,
        { paths: [] },
        'csv',
        ['_id'],
        () => undefined,
        controller.signal,
        () => undefined,
      ),
    ).rejects.toThrow();
  });

  it('keeps each page as a blob and gives back the whole text, typed, and its size', async () => {
    const sink = blobSink('text/csv');
    sink.write('_id,name\r\n');
    sink.write('1,é\r\n');
    const blob = sink.blob();
    expect(blob.type).toBe('text/csv');
    expect(await blob.text()).toBe('_id,name\r\n1,é\r\n');
    expect(sink.bytes()).toBe(blob.size);
    expect(blob.size).toBe(16); // bytes, not characters: é is two
  });

  it('names the file after the collection and time', () => {
    expect(exportFileName('accounts', 'csv', new Date('2025-01-31T12:00:00.000Z'))).toBe(
      'accounts-2025-01-31T12-00-00.csv',
    );
  });

  it('says how far the export is out of the total, with a proportional fraction', () => {
    expect(exportProgressText({ records: 2000, pages: 2 }, 12_345)).toEqual({
      text: '2,000 of 12,345 records (16%) · page 3',
      fraction: 2000 / 12_345,
    });
    expect(exportProgressText({ records: 2000, pages: 2 }, undefined)).toEqual({ text: '2,000 records · page 3' });
    // Records written while exporting: never past 100%.
    expect(exportProgressText({ records: 1100, pages: 2 }, 1000)).toMatchObject({ fraction: 1 });
    expect(exportProgressText({ records: 0, pages: 0 }, 0)).toMatchObject({ fraction: 1 });
  });
});
