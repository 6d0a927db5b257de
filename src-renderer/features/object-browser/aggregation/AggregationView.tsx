import { useMemo, useState } from 'react';
import type { JsonValue } from '../../../../src-shared/query/json';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import type { OrgClient } from '../../../api/org-client';
import { FaultMessage } from '../../../components/FaultMessage';
import type { BrowseRoute, Route } from '../../../routing/route';
import type { SavedQuery } from '../query-builder/saved-queries';
import { AggregationBuilder } from './AggregationBuilder';
import { AggregationResults } from './AggregationResults';
import { aggregationUrl } from './aggregation-url';
import { cardsFromStages, readPipelineText, type StageCard } from './stage-cards';
import '../../../styles/aggregation.css';

interface AggregationViewProps {
  orgClient: OrgClient;
  route: BrowseRoute;
  navigate: (route: Route) => void;
  def: ObjectDef;
  serviceOrigin: string;
}

type Applied = { ok: true; cards: StageCard[]; stages: JsonValue[] } | { ok: false; message: string };

/** The pipeline in the URL: its cards, and the enabled stages that are sent. */
function appliedPipeline(pipeline: string | undefined, off: readonly number[] | undefined): Applied {
  const read = readPipelineText(pipeline ?? '');
  if (!read.ok) return { ok: false, message: read.message };
  const cards = cardsFromStages(read.stages, off);
  const stages = read.stages
    .filter((_, index) => !(off ?? []).includes(index))
    .map((stage) => ({ [stage.operator]: stage.value }));
  return { ok: true, cards, stages };
}

/**
 * Browse's aggregation mode (issue 42): the pipeline builder over the result of the pipeline as
 * run. The URL holds the pipeline as run; edits stay in the builder until Run.
 */
export function AggregationView({ orgClient, route, navigate, def, serviceOrigin }: AggregationViewProps) {
  const applied = useMemo(() => appliedPipeline(route.pipeline, route.off), [route.pipeline, route.off]);
  const collection = def.collection;
  const url = applied.ok ? aggregationUrl(serviceOrigin, orgClient.org, collection, applied.stages, route.limit) : null;
  // A new pipeline in the URL (Run, the library, back/forward) starts the builder afresh.
  const builderKey = [collection, route.pipeline ?? '', (route.off ?? []).join(',')].join('\u0000');

  // After Run, the result is brought into view once it has arrived (not on every visit).
  const [reveal, setReveal] = useState(false);

  const open = (entry: SavedQuery) => {
    const base = { ...route, limit: entry.limit, skip: 0, cursor: undefined, record: undefined };
    if (entry.pipeline === undefined) {
      navigate({ ...base, agg: undefined, where: entry.where, sort: entry.sort, paths: entry.paths });
    } else {
      navigate({ ...base, agg: true, pipeline: entry.pipeline, off: entry.off });
    }
  };

  return (
    <AggregationBuilder
      key={builderKey}
      orgClient={orgClient}
      def={def}
      initialCards={applied.ok ? applied.cards : []}
      limit={route.limit}
      requestUrl={url}
      onRun={(pipeline, off) => {
        setReveal(true);
        navigate({ ...route, agg: true, pipeline, off: off.length > 0 ? off : undefined, record: undefined });
      }}
      onOpen={open}
    >
      {applied.ok ? (
        <AggregationResults
          orgClient={orgClient}
          route={route}
          navigate={navigate}
          collection={collection}
          stages={applied.stages}
          reveal={reveal}
          onRevealed={() => setReveal(false)}
        />
      ) : (
        <FaultMessage
          fault={{
            object: 'fault',
            name: 'error',
            code: 'kInvalidArgument',
            errCode: 'service.invalidArgument.query',
            status: 0,
            message: 'The pipeline in the address is not valid, so it was not sent. Build one above and run it.',
            reason: applied.message,
          }}
        />
      )}
    </AggregationBuilder>
  );
}
