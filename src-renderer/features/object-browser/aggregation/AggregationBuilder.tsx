import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { JsonValue } from '../../../../src-shared/query/json';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import type { OrgClient } from '../../../api/org-client';
import { QueryLibraryMenu, useQueryLibrary } from '../query-builder/QueryLibraryMenu';
import { RequestMenu } from '../query-builder/RequestMenu';
import { recordRun, type SavedQuery } from '../query-builder/saved-queries';
import { checkCards } from './check-stages';
import { PipelineJsonTab } from './PipelineJsonTab';
import { sharedPipelineParser } from './pipeline-parser';
import { storedStages, type StageCard } from './stage-cards';
import { StageList } from './StageList';
import { useDebounced } from './use-debounced';

/** Typing pauses this long before the previews ask the service. */
const PREVIEW_DELAY_MS = 350;

interface AggregationBuilderProps {
  orgClient: OrgClient;
  def: ObjectDef;
  initialCards: StageCard[];
  limit: number;
  /** The exact request of the result shown, or null while there is none. */
  requestUrl: string | null;
  onRun: (pipeline: string | undefined, off: number[]) => void;
  onOpen: (entry: SavedQuery) => void;
  /** The result as run, shown under the stages in the same scroll area. */
  children: ReactNode;
}

/** The stages a pipeline sends (its enabled ones) as one text, to compare two pipelines. */
function sentText(stored: { stages: JsonValue[]; off: number[] } | null): string | null {
  return stored && JSON.stringify(stored.stages.filter((_, index) => !stored.off.includes(index)));
}

/** Stage cards ⇄ JSON, the query library, the request as commands, and Run. */
export function AggregationBuilder(props: AggregationBuilderProps) {
  const { orgClient, def, initialCards, limit, requestUrl, onRun, onOpen, children } = props;
  const org = orgClient.org;
  const collection = def.collection;
  const [cards, setCards] = useState<StageCard[]>(initialCards);
  const [tab, setTab] = useState<'stages' | 'json'>('stages');
  const [library, updateLibrary] = useQueryLibrary();

  const check = useMemo(() => checkCards(cards, def, sharedPipelineParser), [cards, def]);
  const settledCards = useDebounced(cards, PREVIEW_DELAY_MS);
  const settled = useMemo(
    () => ({ cards: settledCards, check: checkCards(settledCards, def, sharedPipelineParser) }),
    [settledCards, def],
  );

  const stored = useMemo(() => storedStages(cards), [cards]);
  // The result shows the pipeline as run (the URL's); while the stages sent would differ, say so,
  // or the result reads as the answer to the stages above it.
  const runText = useMemo(() => sentText(storedStages(initialCards)), [initialCards]);
  const changed = sentText(stored) !== runText;
  const ranNothing = initialCards.every((card) => !card.enabled);
  const canRun = stored !== null && check.problems.size === 0 && check.general === null;
  const current = {
    org,
    collection,
    paths: [],
    limit,
    ...(stored ? { pipeline: JSON.stringify(stored.stages) } : {}),
    ...(stored && stored.off.length > 0 ? { off: stored.off } : {}),
  };

  const run = () => {
    if (!canRun || !stored) return;
    updateLibrary((lib) => recordRun(lib, { ...current, at: new Date().toISOString() }));
    onRun(stored.stages.length > 0 ? JSON.stringify(stored.stages) : undefined, stored.off);
  };

  // Ctrl/Cmd+Enter runs from anywhere on the screen, as in the find mode.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  // The bar stays in place (its menus open over the stages); stages and result scroll under it.
  return (
    <section className="agg-builder" aria-label="Aggregation pipeline">
      <div className="query-bar" role="group" aria-label="Pipeline bar">
        <div className="segmented" role="group" aria-label="Edit the pipeline as">
          {(['stages', 'json'] as const).map((value) => (
            <button
              key={value}
              type="button"
              className={tab === value ? 'segmented__item segmented__item--on' : 'segmented__item'}
              aria-pressed={tab === value}
              data-testid={`agg-tab-${value}`}
              onClick={() => setTab(value)}
            >
              {value === 'stages' ? `Stages (${cards.length})` : 'JSON'}
            </button>
          ))}
        </div>
        <span className="qb-hint agg-builder__summary" data-testid="agg-summary">
          {cards.map((card) => (card.enabled ? card.operator : `(${card.operator})`)).join(' → ') || 'no stages'}
        </span>
        <QueryLibraryMenu
          library={library}
          updateLibrary={updateLibrary}
          org={org}
          collection={collection}
          current={current}
          onOpen={onOpen}
        />
        <RequestMenu requestUrl={requestUrl} appKey={orgClient.appKey} collection={collection} />
        <button
          type="button"
          className="button button--primary button--small"
          data-testid="agg-run"
          disabled={!canRun}
          onClick={run}
          title="Run (Ctrl/Cmd+Enter)"
        >
          Run <kbd>Ctrl/⌘+Enter</kbd>
        </button>
      </div>
      {check.general && (
        <p className="qb-inline-error" data-testid="agg-general-error">
          {check.general.message}
        </p>
      )}
      <div className="agg-builder__scroll" data-testid="agg-scroll">
        {tab === 'stages' ? (
          <StageList orgClient={orgClient} def={def} cards={cards} check={check} settled={settled} onCards={setCards} />
        ) : (
          <PipelineJsonTab
            orgClient={orgClient}
            collection={collection}
            cards={cards}
            check={check}
            settled={settled}
            onCards={setCards}
          />
        )}
        {changed && (
          <p className="qb-hint agg-builder__stale" role="status" data-testid="agg-result-stale">
            {ranNothing
              ? 'Below: the collection’s documents (no stage run yet).'
              : 'Below: the result of the pipeline as last run.'}{' '}
            Run (Ctrl/⌘+Enter) to see the stages above.
          </p>
        )}
        {children}
      </div>
    </section>
  );
}
