import type { BrowseRoute, Route } from '../../../routing/route';
import { pipelineFromWhere } from './agg-route';

/**
 * Find (the where/sort query bar) or Aggregate (the pipeline builder). Entering Aggregate with a
 * where in force starts the pipeline with it as a `$match`, so the analyst goes on from there.
 */
export function ModeSwitch({ route, navigate }: { route: BrowseRoute; navigate: (route: Route) => void }) {
  const toAggregate = (): Route => {
    const pipeline = route.pipeline ?? pipelineFromWhere(route.where);
    return { ...route, agg: true, pipeline, record: undefined };
  };
  return (
    <div className="segmented" role="group" aria-label="Browse mode">
      <button
        type="button"
        className={route.agg ? 'segmented__item' : 'segmented__item segmented__item--on'}
        aria-pressed={!route.agg}
        data-testid="browse-mode-find"
        onClick={() => navigate({ ...route, agg: undefined, record: undefined })}
      >
        Find
      </button>
      <button
        type="button"
        className={route.agg ? 'segmented__item segmented__item--on' : 'segmented__item'}
        aria-pressed={Boolean(route.agg)}
        data-testid="browse-mode-aggregate"
        onClick={() => navigate(toAggregate())}
      >
        Aggregate
      </button>
    </div>
  );
}
