import { describe, expect, it } from 'vitest';
import {
  HISTORY_PER_COLLECTION,
  emptyLibrary,
  forCollection,
  mergeLibraries,
  parseQueryLibrary,
  recordRun,
  saveNamed,
  serializeQueryLibrary,
  type SavedQuery,
} from './saved-queries';

const entry = (over: Partial<SavedQuery> = {}): SavedQuery => ({
  org: 'demo',
  collection: 'accounts',
  paths: [],
  limit: 100,
  at: '2025-01-01T00:00:00.000Z',
  ...over,
});

describe('history', () => {
  it('puts the latest run first, moves repeats up and keeps 20 per collection', () => {
    let library = emptyLibrary();
    for (let i = 0; i < 25; i++) library = recordRun(library, entry({ where: `{"n":${i}}` }));
    library = recordRun(library, entry({ collection: 'roles' }));
    library = recordRun(library, entry({ where: '{"n":10}' }));
    const accounts = forCollection(library.history, 'demo', 'accounts');
    expect(accounts).toHaveLength(HISTORY_PER_COLLECTION);
    expect(accounts[0]?.where).toBe('{"n":10}');
    expect(accounts.filter((e) => e.where === '{"n":10}')).toHaveLength(1);
    expect(forCollection(library.history, 'demo', 'roles')).toHaveLength(1);
  });
});

describe('saved queries, export and import', () => {
  it('round-trips through the exported file', () => {
    let library = saveNamed(emptyLibrary(), { ...entry({ where: '{"state":"verified"}' }), name: 'Verified' });
    library = recordRun(library, entry({ sort: '{"email":1}' }));
    expect(parseQueryLibrary(serializeQueryLibrary(library))).toEqual(library);
  });

  it('replaces a saved query of the same name and merges imports', () => {
    const first = saveNamed(emptyLibrary(), { ...entry({ where: '{"a":1}' }), name: 'Q' });
    const second = saveNamed(first, { ...entry({ where: '{"a":2}' }), name: 'Q' });
    expect(second.saved).toHaveLength(1);
    expect(second.saved[0]?.where).toBe('{"a":2}');
    const imported = saveNamed(emptyLibrary(), { ...entry({ where: '{"a":3}' }), name: 'Q' });
    const merged = mergeLibraries(saveNamed(second, { ...entry(), name: 'Other' }), imported);
    expect(merged.saved.map((s) => [s.name, s.where])).toEqual([
      ['Q', '{"a":3}'],
      ['Other', undefined],
    ]);
  });

  it('refuses files that are not a library and drops malformed entries', () => {
    expect(() => parseQueryLibrary('nope')).toThrow('not JSON');
    expect(() => parseQueryLibrary('{"version":2}')).toThrow('version 1');
    const text = JSON.stringify({
      version: 1,
      history: [entry(), { ...entry(), limit: 5000 }, { ...entry(), collection: '../x' }, 'junk'],
      saved: [{ ...entry(), name: '  Mine  ' }, entry()],
    });
    const library = parseQueryLibrary(text);
    expect(library.history).toHaveLength(1);
    expect(library.saved.map((s) => s.name)).toEqual(['Mine']);
  });
});

describe('aggregations in the library', () => {
  const pipeline = '[{"$match":{"locale":"en_US"}},{"$group":{"_id":"$locale","count":{"$sum":1}}}]';

  it('keeps a pipeline with its disabled stages through the exported file', () => {
    let library = saveNamed(emptyLibrary(), { ...entry({ pipeline, off: [0] }), name: 'Per locale' });
    library = recordRun(library, entry({ pipeline }));
    expect(parseQueryLibrary(serializeQueryLibrary(library))).toEqual(library);
  });

  it('tells aggregations apart by pipeline and by disabled stages', () => {
    let library = recordRun(emptyLibrary(), entry({ pipeline }));
    library = recordRun(library, entry({ pipeline, off: [0] }));
    library = recordRun(library, entry());
    library = recordRun(library, entry({ pipeline }));
    expect(library.history.map((e) => [e.pipeline !== undefined, e.off])).toEqual([
      [true, undefined],
      [false, undefined],
      [true, [0]],
    ]);
  });

  it('drops entries whose pipeline or disabled stages are malformed', () => {
    const text = JSON.stringify({
      version: 1,
      history: [
        entry({ pipeline }),
        { ...entry(), pipeline: 7 },
        { ...entry(), pipeline, off: [-1] },
        { ...entry(), pipeline, off: 'all' },
        { ...entry(), pipeline: 'x'.repeat(20_001) },
      ],
      saved: [],
    });
    expect(parseQueryLibrary(text).history).toEqual([entry({ pipeline })]);
  });
});
