import { describe, expect, it } from 'vitest';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { checkCards } from './check-stages';
import { sharedPipelineParser } from './pipeline-parser';
import { cardsFromStages, updateCard } from './stage-cards';

const def: ObjectDef = {
  name: 'c_thing',
  collection: 'c_things',
  label: 'Thing',
  custom: true,
  properties: [{ name: 'c_kind', type: 'String', indexed: true }],
};

describe("the service's pipeline parser in the console", () => {
  const cards = cardsFromStages(
    [
      { operator: '$match', value: { c_kind: 'a' } },
      { operator: '$group', value: { _id: '$c_kind', count: { $sum: 1 } } },
    ],
    [],
  );

  it('puts its fault on the stage it names, at the spot, before anything is sent', () => {
    const problem = checkCards(cards, def, sharedPipelineParser).problems.get(cards[1]!.id);
    expect(problem?.path).toMatch(/^pipeline\[1\]\.\$group\._id/);
    expect(problem?.message).toContain('$c_kind');
  });

  it('accepts the pipeline once the path is written as the service reads it', () => {
    const fixed = updateCard(cards, cards[1]!.id, { text: '{"_id": "c_kind", "count": {"$sum": 1}}' });
    const check = checkCards(fixed, def, sharedPipelineParser);
    expect(check.problems.size).toBe(0);
    expect(check.general).toBeNull();
  });
});
