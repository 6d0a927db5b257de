/**
 * Live checks of the stage cards: each card's text must be JSON (the error at its character), and
 * the enabled stages together go through the service's own pipeline parser (src-shared), whose
 * fault names a stage (`pipeline[2].$group.count`) and so lands on that card, at the spot. Faults
 * the service answers for a preview name stages the same way and land the same way.
 */
import type { FaultBody } from '../../../../src-shared/faults';
import { FaultError } from '../../../../src-shared/faults';
import type { JsonValue } from '../../../../src-shared/query/json';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { problemFromFault, type TextProblem } from '../query-builder/validate-text';
import { cardValue, type StageCard } from './stage-cards';

/** Parses a pipeline the way the service does; throws a FaultError naming the stage. */
export type PipelineParser = (stages: JsonValue[], def: ObjectDef) => unknown;

export interface PipelineCheck {
  /** Problems by card id: JSON syntax on any card, and the parser's first fault on its card. */
  problems: ReadonlyMap<string, TextProblem>;
  /** The enabled stages as documents; null while an enabled card is not JSON. */
  stages: JsonValue[] | null;
  /** A fault the parser raised that names no stage (shown above the cards). */
  general: TextProblem | null;
}

const STAGE_PATH = /^pipeline\[(\d+)\]/;

/** The card a fault names (`pipeline[i]…`, i counting enabled cards) and the problem on its text. */
export function cardProblemFromFault(
  fault: FaultBody,
  enabled: readonly StageCard[],
): { cardId: string; problem: TextProblem } | null {
  const match = fault.path === undefined ? null : STAGE_PATH.exec(fault.path);
  const card = match ? enabled[Number(match[1])] : undefined;
  if (!match || !card) return null;
  const problem = problemFromFault(fault, card.text, `${match[0]}.${card.operator}`);
  return { cardId: card.id, problem };
}

export function checkCards(cards: readonly StageCard[], def: ObjectDef, parse?: PipelineParser): PipelineCheck {
  const problems = new Map<string, TextProblem>();
  const stages: JsonValue[] = [];
  let allJson = true;
  for (const card of cards) {
    const read = cardValue(card);
    if (!read.ok) {
      problems.set(card.id, {
        message: read.message,
        errCode: 'service.invalidArgument.query',
        offset: read.offset,
        range: { start: read.offset, end: Math.min(read.offset + 1, card.text.length) },
      });
      if (card.enabled) allJson = false;
    } else if (card.enabled) {
      stages.push({ [card.operator]: read.value });
    }
  }
  if (!allJson) return { problems, stages: null, general: null };
  let general: TextProblem | null = null;
  if (parse) {
    try {
      parse(stages, def);
    } catch (error) {
      if (!(error instanceof FaultError)) throw error;
      const located = cardProblemFromFault(
        error.fault,
        cards.filter((card) => card.enabled),
      );
      if (located) problems.set(located.cardId, located.problem);
      else general = problemFromFault(error.fault, '', 'pipeline');
    }
  }
  return { problems, stages, general };
}
