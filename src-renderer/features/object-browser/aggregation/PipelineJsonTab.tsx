import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { aggregationQuery } from '../../../api/aggregations';
import { faultOf } from '../../../api/api-error';
import type { OrgClient } from '../../../api/org-client';
import { locateFaultPath } from '../query-builder/json-locate';
import { JsonEditor } from '../query-builder/JsonEditor';
import { problemFromFault, type TextProblem } from '../query-builder/validate-text';
import type { PipelineCheck } from './check-stages';
import { mergeEditedStages, pipelineEditorText, readPipelineText, type StageCard } from './stage-cards';
import { PREVIEW_DOCUMENTS } from './StageCardView';
import { StagePreview, type PreviewState } from './StagePreview';

interface PipelineJsonTabProps {
  orgClient: OrgClient;
  collection: string;
  cards: StageCard[];
  check: PipelineCheck;
  settled: { cards: readonly StageCard[]; check: PipelineCheck };
  onCards: (cards: StageCard[]) => void;
}

/**
 * The whole pipeline as JSON text, two-way with the cards: it opens with the enabled cards' texts
 * and every edit that reads as a pipeline goes back into the cards (disabled ones keep their
 * places). Faults show at their spot in the text; the preview is the whole pipeline's output.
 */
export function PipelineJsonTab({ orgClient, collection, cards, check, settled, onCards }: PipelineJsonTabProps) {
  const [text, setText] = useState(() => pipelineEditorText(cards));
  const read = useMemo(() => readPipelineText(text), [text]);
  const off = cards.filter((card) => !card.enabled).length;

  const stages = settled.check.stages;
  const sendable = stages !== null && settled.check.problems.size === 0 && settled.check.general === null;
  const preview = useQuery({
    ...aggregationQuery(orgClient, collection, [...(stages ?? []), { $limit: PREVIEW_DOCUMENTS }], undefined),
    enabled: sendable && read.ok,
  });

  let problem: TextProblem | null = null;
  if (!read.ok) {
    problem = {
      message: read.message,
      errCode: 'service.invalidArgument.query',
      ...(read.offset !== undefined ? { offset: read.offset } : {}),
      range: read.offset !== undefined ? { start: read.offset, end: Math.min(read.offset + 1, text.length) } : null,
    };
  } else {
    const first = cards.find((card) => card.enabled && check.problems.has(card.id));
    const onCard = first ? check.problems.get(first.id) : undefined;
    if (onCard) {
      problem = { ...onCard, range: onCard.path ? locateFaultPath(text, onCard.path, 'pipeline') : null };
    } else if (check.general) {
      problem = check.general;
    } else if (preview.isError) {
      problem = problemFromFault(faultOf(preview.error), text, 'pipeline');
    }
  }

  let state: PreviewState;
  if (problem) state = { kind: 'fault' };
  else if (!preview.data) state = { kind: 'loading' };
  else {
    const stale = preview.isPlaceholderData || settled.cards !== cards;
    state = { kind: 'documents', documents: preview.data.items, stale };
  }

  return (
    <div className="pipeline-json">
      <JsonEditor
        value={text}
        onChange={(next) => {
          setText(next);
          const parsed = readPipelineText(next);
          if (parsed.ok) onCards(mergeEditedStages(cards, parsed.stages));
        }}
        problem={problem}
        label="Pipeline as JSON"
        testId="agg-json"
        note={
          off > 0 ? `${off} stage${off === 1 ? ' is' : 's are'} off and not shown here; they keep their places.` : null
        }
      />
      <StagePreview state={state} label="Output of the pipeline" />
    </div>
  );
}
