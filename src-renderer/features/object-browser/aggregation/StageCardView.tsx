import { useQuery } from '@tanstack/react-query';
import { useMemo, type CSSProperties } from 'react';
import type { JsonValue } from '../../../../src-shared/query/json';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { aggregationQuery } from '../../../api/aggregations';
import { faultOf } from '../../../api/api-error';
import type { OrgClient } from '../../../api/org-client';
import { JsonEditor } from '../query-builder/JsonEditor';
import { projectablePaths } from '../query-builder/operators';
import type { TextProblem } from '../query-builder/validate-text';
import { cardProblemFromFault } from './check-stages';
import { GroupFormRow } from './GroupFormRow';
import type { StageCard } from './stage-cards';
import { STAGE_HINTS, STAGE_OPERATORS } from './stage-templates';
import { StagePreview, type PreviewState } from './StagePreview';

/** Documents each card's preview shows: the pipeline up to the card, then `$limit`. */
export const PREVIEW_DOCUMENTS = 5;

export interface StageCardProps {
  orgClient: OrgClient;
  def: ObjectDef;
  card: StageCard;
  /** Position among all cards (0-based) and their number. */
  index: number;
  count: number;
  /** The enabled cards, as the pipeline numbers them (faults name stages by this order). */
  enabled: readonly StageCard[];
  /** The enabled stages up to and including this card, or null when they cannot be sent yet. */
  upTo: JsonValue[] | null;
  /** The live check's problem on this card (JSON syntax or the parser's fault). */
  problem: TextProblem | null;
  /** Edits the previews have not caught up with yet (typing has not paused). */
  pending: boolean;
  /** Number (1-based) of an earlier stage with a problem, which blocks this preview. */
  blockedBy: number | null;
  /** A card's number (1-based position among all cards). */
  numberOf: (cardId: string) => number;
  onChange: (patch: Partial<StageCard>) => void;
  onOperator: (operator: string) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
  onAddAfter: () => void;
}

/** One stage: operator, value, on/off, order, and a live preview of what comes out of it. */
export function StageCardView(props: StageCardProps) {
  const { orgClient, def, card, index, count, enabled, upTo, problem, blockedBy } = props;
  const number = index + 1;
  // Key completion offers the collection's paths (what the first stages read).
  const paths = useMemo(() => projectablePaths(def), [def]);
  const previewStages = useMemo(() => (upTo === null ? null : [...upTo, { $limit: PREVIEW_DOCUMENTS }]), [upTo]);
  const preview = useQuery({
    ...aggregationQuery(orgClient, def.collection, previewStages ?? [], undefined),
    enabled: card.enabled && previewStages !== null && blockedBy === null && problem === null,
  });

  // The service's fault for this preview names a stage: this card's, or an earlier one's.
  const served = preview.isError ? cardProblemFromFault(faultOf(preview.error), enabled) : null;
  const ownServed = served?.cardId === card.id ? served.problem : null;
  const earlier = served && served.cardId !== card.id ? props.numberOf(served.cardId) : null;
  const shownProblem = problem ?? ownServed;

  let state: PreviewState;
  if (!card.enabled) state = { kind: 'off' };
  else if (shownProblem) state = { kind: 'fault' };
  else if (blockedBy !== null) state = { kind: 'blocked', stage: blockedBy };
  else if (earlier !== null) state = { kind: 'blocked', stage: earlier };
  else if (preview.isError) state = { kind: 'error', fault: faultOf(preview.error) };
  else if (!preview.data) state = { kind: 'loading' };
  else state = { kind: 'documents', documents: preview.data.items, stale: preview.isPlaceholderData || props.pending };

  return (
    <li
      className={card.enabled ? 'stage-card' : 'stage-card stage-card--off'}
      data-testid="agg-stage"
      aria-label={`Stage ${number}: ${card.operator}${card.enabled ? '' : ' (off)'}`}
    >
      <div className="stage-card__head">
        <span className="stage-card__number" aria-hidden="true">
          {number}
        </span>
        <select
          className="select stage-card__operator"
          aria-label={`Operator of stage ${number}`}
          data-testid="agg-stage-operator"
          value={card.operator}
          onChange={(e) => props.onOperator(e.target.value)}
        >
          {[...new Set<string>([card.operator, ...STAGE_OPERATORS])].map((op) => (
            <option key={op} value={op}>
              {op}
            </option>
          ))}
        </select>
        <label className="check stage-card__toggle">
          <input
            type="checkbox"
            data-testid="agg-stage-enabled"
            checked={card.enabled}
            onChange={(e) => props.onChange({ enabled: e.target.checked })}
          />
          On
        </label>
        <span className="stage-card__hint">{STAGE_HINTS[card.operator] ?? ''}</span>
        <span className="stage-card__actions">
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={`Move stage ${number} up`}
            data-testid="agg-stage-up"
            disabled={index === 0}
            onClick={() => props.onMove(index - 1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={`Move stage ${number} down`}
            data-testid="agg-stage-down"
            disabled={index === count - 1}
            onClick={() => props.onMove(index + 1)}
          >
            ↓
          </button>
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={`Add a stage after stage ${number}`}
            data-testid="agg-stage-add-after"
            onClick={props.onAddAfter}
          >
            +
          </button>
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={`Remove stage ${number}`}
            data-testid="agg-stage-delete"
            onClick={props.onRemove}
          >
            ×
          </button>
        </span>
      </div>
      <div className="stage-card__body">
        <div className="stage-card__editor" style={{ '--editor-lines': editorLines(card.text) } as CSSProperties}>
          {card.operator === '$group' && (
            <GroupFormRow
              def={props.def}
              text={card.text}
              number={number}
              onText={(text) => props.onChange({ text })}
            />
          )}
          <JsonEditor
            value={card.text}
            onChange={(text) => props.onChange({ text })}
            problem={shownProblem}
            label={`Value of stage ${number} (${card.operator})`}
            paths={paths}
            testId="agg-stage-text"
          />
        </div>
        <StagePreview state={state} label={`Output of stage ${number}`} />
      </div>
    </li>
  );
}

/** The editor grows with its text, from 2 to 10 lines (then it scrolls). */
function editorLines(text: string): number {
  return Math.min(10, Math.max(2, text.split('\n').length));
}
