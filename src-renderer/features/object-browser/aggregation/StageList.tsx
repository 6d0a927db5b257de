import { useMemo } from 'react';
import type { JsonValue } from '../../../../src-shared/query/json';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import type { OrgClient } from '../../../api/org-client';
import type { PipelineCheck } from './check-stages';
import { cardValue, insertCard, moveCard, newCard, removeCard, updateCard, type StageCard } from './stage-cards';
import { stageTemplate } from './stage-templates';
import { StageCardView } from './StageCardView';

interface StageListProps {
  orgClient: OrgClient;
  def: ObjectDef;
  cards: StageCard[];
  /** The live check of the cards (problems show as they are typed). */
  check: PipelineCheck;
  /** The cards as they were when typing paused, and their check: the previews follow these. */
  settled: { cards: readonly StageCard[]; check: PipelineCheck };
  onCards: (cards: StageCard[]) => void;
}

/** The stage cards in pipeline order, each with its preview, and a way to add one. */
export function StageList({ orgClient, def, cards, check, settled, onCards }: StageListProps) {
  const previews = useMemo(() => previewInputs(settled.cards, settled.check), [settled]);
  const numbers = useMemo(() => new Map(cards.map((card, i) => [card.id, i + 1])), [cards]);
  const enabled = useMemo(() => settled.cards.filter((card) => card.enabled), [settled]);

  const add = (at: number) => onCards(insertCard(cards, at, newCard('$match', stageTemplate('$match', def))));
  const setOperator = (card: StageCard, operator: string) => {
    // A card still holding its operator's template (or nothing) takes the new operator's.
    const untouched = card.text.trim() === '' || card.text === stageTemplate(card.operator, def);
    onCards(updateCard(cards, card.id, { operator, ...(untouched ? { text: stageTemplate(operator, def) } : {}) }));
  };

  return (
    <div className="stage-list">
      {cards.length === 0 && (
        <div className="empty-state" data-testid="agg-empty">
          <p className="empty-state__title">No stages yet: every document passes through.</p>
          <p>Add a stage, pick its operator and edit its value; each stage shows what comes out of it.</p>
        </div>
      )}
      <ol className="stage-list__cards" aria-label="Pipeline stages">
        {cards.map((card, index) => {
          const input = previews.get(card.id);
          return (
            <StageCardView
              key={card.id}
              orgClient={orgClient}
              def={def}
              card={card}
              index={index}
              count={cards.length}
              enabled={enabled}
              upTo={input?.upTo ?? null}
              problem={check.problems.get(card.id) ?? null}
              pending={settled.cards !== cards}
              blockedBy={input?.blockedBy === undefined ? null : (numbers.get(input.blockedBy) ?? null)}
              numberOf={(id) => numbers.get(id) ?? 0}
              onChange={(patch) => onCards(updateCard(cards, card.id, patch))}
              onOperator={(operator) => setOperator(card, operator)}
              onMove={(to) => onCards(moveCard(cards, index, to))}
              onRemove={() => onCards(removeCard(cards, card.id))}
              onAddAfter={() => add(index + 1)}
            />
          );
        })}
      </ol>
      <button
        type="button"
        className="button button--secondary button--small stage-list__add"
        data-testid="agg-add-stage"
        onClick={() => add(cards.length)}
      >
        + Add stage
      </button>
    </div>
  );
}

interface PreviewInput {
  /** The enabled stages up to and including the card (null: not sendable). */
  upTo: JsonValue[] | null;
  /** The id of an earlier enabled card with a problem, if any. */
  blockedBy?: string;
}

/** For each enabled card: the stages its preview runs, or the earlier card that blocks it. */
function previewInputs(cards: readonly StageCard[], check: PipelineCheck): Map<string, PreviewInput> {
  const out = new Map<string, PreviewInput>();
  const stages: JsonValue[] = [];
  let blockedBy: string | undefined;
  for (const card of cards) {
    if (!card.enabled) continue;
    const read = cardValue(card);
    if (read.ok) stages.push({ [card.operator]: read.value });
    const sendable = read.ok && blockedBy === undefined;
    out.set(card.id, { upTo: sendable ? [...stages] : null, ...(blockedBy ? { blockedBy } : {}) });
    if ((!read.ok || check.problems.has(card.id)) && blockedBy === undefined) blockedBy = card.id;
  }
  return out;
}
