import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import { presentListText, presentRecord } from './present.js';
import type { Doc } from './validate.js';

const def: ObjectDef = { name: 'c_thing', collection: 'c_things', label: 'Thing', custom: true, properties: [] };

describe('list pages written from stored text', () => {
  it('are byte for byte what serialising the presented records gives', () => {
    const doc = fc.dictionary(
      fc.string({ unit: 'grapheme', maxLength: 8 }).filter((k) => !['_id', 'object', 'access'].includes(k)),
      fc.jsonValue({ maxDepth: 3 }),
      { maxKeys: 6 },
    );
    fc.assert(
      fc.property(
        // Ids as stored, and any other text (quotes, escapes, 24 characters that are not hex), which
        // the splice must quote as JSON does.
        fc.array(
          fc.tuple(
            fc.oneof(
              fc.stringMatching(/^[0-9a-f]{24}$/),
              fc.string({ minLength: 24, maxLength: 24 }),
              fc.string({ unit: 'grapheme', maxLength: 30 }),
            ),
            doc,
            fc.integer({ min: 1, max: 8 }),
          ),
        ),
        fc.boolean(),
        (rows, hasMore) => {
          const stored = rows.map(([_id, d]) => ({
            _id,
            text: JSON.stringify(d),
            doc: JSON.parse(JSON.stringify(d)) as Doc,
          }));
          const levels = rows.map(([, , level]) => level);
          const expected = JSON.stringify({
            object: 'list',
            data: stored.map((r, i) => presentRecord(def, r, levels[i]!)),
            hasMore,
          });
          expect(presentListText(def, stored, levels, hasMore)).toBe(expected);
        },
      ),
      { seed: 11, numRuns: 300 },
    );
  });

  it('handles records with no stored properties', () => {
    expect(presentListText(def, [{ _id: 'a'.repeat(24), text: '{}' }], [3], false)).toBe(
      `{"object":"list","data":[{"_id":"${'a'.repeat(24)}","object":"c_thing","access":3}],"hasMore":false}`,
    );
  });
});
