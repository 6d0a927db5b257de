import { describe, expect, it } from 'vitest';
import {
  cardsFromStages,
  compactJson,
  stageValueText,
  cardValue,
  insertCard,
  mergeEditedStages,
  moveCard,
  newCard,
  pipelineEditorText,
  readPipelineText,
  removeCard,
  storedStages,
  updateCard,
  type StageCard,
} from './stage-cards';

const group = { _id: 'locale', count: { $sum: 1 } };

function cards(): StageCard[] {
  return cardsFromStages(
    [
      { operator: '$match', value: { locale: 'en_US' } },
      { operator: '$group', value: group },
      { operator: '$sort', value: { count: -1 } },
    ],
    [0],
  );
}

describe('stage cards ⇄ pipeline', () => {
  it('reads stored stages with the disabled ones and writes them back the same', () => {
    const read = readPipelineText(JSON.stringify([{ $match: { locale: 'en_US' } }, { $group: group }]));
    expect(read).toEqual({
      ok: true,
      stages: [
        { operator: '$match', value: { locale: 'en_US' } },
        { operator: '$group', value: group },
      ],
    });
    const built = cards();
    expect(built.map((c) => [c.operator, c.enabled])).toEqual([
      ['$match', false],
      ['$group', true],
      ['$sort', true],
    ]);
    expect(storedStages(built)).toEqual({
      stages: [{ $match: { locale: 'en_US' } }, { $group: group }, { $sort: { count: -1 } }],
      off: [0],
    });
  });

  it('refuses what is no pipeline, naming the stage or the character', () => {
    expect(readPipelineText('{"$match": {}}')).toMatchObject({ ok: false, message: /JSON array of stages/ });
    expect(readPipelineText('[{"$match": {}, "$sort": {}}]')).toMatchObject({ ok: false, index: 0 });
    expect(readPipelineText('[{"match": {}}]')).toMatchObject({ ok: false, index: 0 });
    expect(readPipelineText('[{"$match": {},}]')).toMatchObject({ ok: false, offset: 15 });
    expect(readPipelineText('  ')).toEqual({ ok: true, stages: [] });
  });

  it('shows only the enabled cards in the JSON text, each text verbatim', () => {
    const built = updateCard(cards(), cards()[0]!.id, {});
    const withTypo = updateCard(built, built[2]!.id, { text: '{"count": -1,}' });
    const text = pipelineEditorText(withTypo);
    expect(text).not.toContain('$match');
    expect(text).toContain('{"$sort": {"count": -1,}}');
    expect(readPipelineText(pipelineEditorText(built))).toMatchObject({
      ok: true,
      stages: [
        { operator: '$group', value: group },
        { operator: '$sort', value: { count: -1 } },
      ],
    });
    expect(pipelineEditorText([])).toBe('[]');
    expect(storedStages(withTypo)).toBeNull();
  });

  it('merges edited JSON into the enabled cards, keeping identities, texts and disabled cards', () => {
    const before = cards();
    const sortText = '{ "count": -1 }';
    const edited = updateCard(before, before[2]!.id, { text: sortText });
    const merged = mergeEditedStages(edited, [
      { operator: '$group', value: { _id: '$gender', count: { $sum: 1 } } },
      { operator: '$sort', value: { count: -1 } },
      { operator: '$limit', value: 5 },
    ]);
    expect(merged.map((c) => c.id).slice(0, 3)).toEqual(before.map((c) => c.id));
    expect(merged[0]).toEqual(before[0]); // the disabled $match stays where it was
    expect(JSON.parse(merged[1]!.text)).toEqual({ _id: '$gender', count: { $sum: 1 } });
    expect(merged[2]!.text).toBe(sortText); // same value: the card's own text is kept
    expect(merged[3]).toMatchObject({ operator: '$limit', text: '5', enabled: true });

    const fewer = mergeEditedStages(before, [{ operator: '$count', value: 'n' }]);
    expect(fewer.map((c) => c.operator)).toEqual(['$match', '$count']);
    expect(fewer[1]!.id).toBe(before[1]!.id);
  });

  it('moves, inserts and removes cards', () => {
    const before = cards();
    const ids = before.map((c) => c.id);
    expect(moveCard(before, 2, 0).map((c) => c.id)).toEqual([ids[2], ids[0], ids[1]]);
    expect(moveCard(before, 0, 5).map((c) => c.id)).toEqual(ids);
    expect(removeCard(before, ids[1]!).map((c) => c.id)).toEqual([ids[0], ids[2]]);
    const added = insertCard(before, 1, newCard('$limit', '3'));
    expect(added.map((c) => c.operator)).toEqual(['$match', '$limit', '$group', '$sort']);
    expect(new Set(added.map((c) => c.id)).size).toBe(4);
  });

  it('reads a card value, with the offset of a syntax error', () => {
    expect(cardValue({ text: '"$locale"' })).toEqual({ ok: true, value: '$locale' });
    expect(cardValue({ text: '{"a": }' })).toMatchObject({ ok: false, offset: 6 });
  });

  it('writes short stage values on one line and long ones indented', () => {
    expect(stageValueText({ _id: 'locale', count: { $sum: 1 } })).toBe('{"_id": "locale", "count": {"$sum": 1}}');
    expect(compactJson({ a: [1, 'x, y', null], b: {} })).toBe('{"a": [1, "x, y", null], "b": {}}');
    const long = {
      _id: { $dateToString: { format: '%Y-%m', date: 'created' } },
      count: { $sum: 1 },
      average: { $avg: 'c_score' },
    };
    expect(stageValueText(long)).toBe(JSON.stringify(long, null, 2));
    expect(JSON.parse(compactJson(long))).toEqual(long);
  });
});
