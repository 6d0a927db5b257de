import { describe, expect, it } from 'vitest';
import { fault } from '../../../../src-shared/faults';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { cardProblemFromFault, checkCards, type PipelineParser } from './check-stages';
import { cardsFromStages, updateCard } from './stage-cards';

const def: ObjectDef = { name: 'account', collection: 'accounts', label: 'Account', custom: false, properties: [] };

const built = cardsFromStages(
  [
    { operator: '$match', value: {} },
    { operator: '$group', value: { _id: 'locale', count: { $sum: 1 } } },
    { operator: '$sort', value: { count: -1 } },
  ],
  [0],
);

/** A stand-in for the service's parser: refuses `$sum` on the stage it is given. */
const refuseSum: PipelineParser = (stages) => {
  const index = stages.findIndex((s) => JSON.stringify(s).includes('$sum'));
  if (index >= 0) {
    throw fault('invalidArgument', 'query', { reason: 'no sums today', path: `pipeline[${index}].$group.count.$sum` });
  }
};

describe('stage checks', () => {
  it('puts a parser fault on the card it names (counting enabled cards), at the spot', () => {
    const check = checkCards(built, def, refuseSum);
    const problem = check.problems.get(built[1]!.id);
    expect(problem?.message).toBe('no sums today');
    expect(problem?.path).toBe('pipeline[0].$group.count.$sum');
    expect(built[1]!.text.slice(problem!.range!.start, problem!.range!.end)).toBe('"$sum": 1');
    expect(check.problems.size).toBe(1);
    expect(check.stages).toEqual([{ $group: { _id: 'locale', count: { $sum: 1 } } }, { $sort: { count: -1 } }]);
  });

  it('reports JSON errors on every card and asks the parser nothing until the enabled ones are JSON', () => {
    let asked = 0;
    const typo = updateCard(built, built[2]!.id, { text: '{"count": }' });
    const check = checkCards(typo, def, () => (asked += 1));
    expect(check.stages).toBeNull();
    expect(asked).toBe(0);
    expect(check.problems.get(built[2]!.id)).toMatchObject({ offset: 10 });
    // A disabled card's typo is shown, but the enabled stages still go to the parser.
    const offTypo = updateCard(built, built[0]!.id, { text: '{' });
    expect(checkCards(offTypo, def, () => (asked += 1)).stages).toHaveLength(2);
    expect(asked).toBe(1);
  });

  it('maps a service fault to its card, and leaves faults without a stage alone', () => {
    const enabled = built.filter((c) => c.enabled);
    const located = cardProblemFromFault(
      {
        object: 'fault',
        name: 'error',
        code: 'kInvalidArgument',
        errCode: 'x',
        status: 400,
        message: 'm',
        path: 'pipeline[1].$sort.count',
      },
      enabled,
    );
    expect(located?.cardId).toBe(built[2]!.id);
    const general = { object: 'fault', name: 'error', code: 'k', errCode: 'x', status: 400, message: 'm' } as const;
    expect(cardProblemFromFault(general, enabled)).toBeNull();
    expect(cardProblemFromFault({ ...general, path: 'pipeline[7]' }, enabled)).toBeNull();
  });
});
