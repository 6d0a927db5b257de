/**
 * Aggregation mode's part of the browse URL:
 *
 *   #/browse?c=accounts&mode=agg&pipeline=[{"$group":{…}},{"$sort":{…}}]&off=1&show=chart&chart=bar
 *
 * Trust boundary: the hash is user input. Only shapes are checked here (the pipeline stays text,
 * at most MAX_PIPELINE_URL_TEXT characters, and is parsed and checked like typed text before
 * anything is sent; `off` is a short list of small indexes; the rest are closed choices).
 */

import { isJsonObject, parseJson } from '../../../../src-shared/query/json';

export type ChartKind = 'bar' | 'line' | 'histogram';
export const CHART_KINDS: readonly ChartKind[] = ['bar', 'line', 'histogram'];
export type AggregationShow = 'table' | 'json' | 'chart';

export interface AggregationState {
  /** Aggregation mode (the pipeline builder) instead of the find query bar. */
  agg?: true;
  /** Every stage as run, disabled ones included: a JSON array of `{"$stage": value}` documents. */
  pipeline?: string;
  /** Indexes (into `pipeline`) of the disabled stages. */
  off?: number[];
  /** How the result is shown; undefined: a chart when the result has a chartable shape. */
  show?: AggregationShow;
  /** The chart picked by hand; undefined: the one the result's shape suggests. */
  chart?: ChartKind;
}

const MAX_PIPELINE_URL_TEXT = 20_000;
/** As many as a pipeline may have stages (the service's limit is 20). */
const MAX_OFF = 20;

export function parseAggregationParams(params: URLSearchParams): AggregationState {
  const state: AggregationState = {};
  if (params.get('mode') === 'agg') state.agg = true;
  const pipeline = params.get('pipeline');
  if (pipeline !== null && pipeline.trim() !== '' && pipeline.length <= MAX_PIPELINE_URL_TEXT) {
    state.pipeline = pipeline;
  }
  const off = params.get('off');
  if (off !== null && /^\d{1,2}(,\d{1,2})*$/.test(off)) {
    state.off = [...new Set(off.split(',').map(Number))].sort((a, b) => a - b).slice(0, MAX_OFF);
  }
  const show = params.get('show');
  if (show === 'table' || show === 'json' || show === 'chart') state.show = show;
  const chart = params.get('chart');
  if ((CHART_KINDS as readonly string[]).includes(chart ?? '')) state.chart = chart as ChartKind;
  return state;
}

export function writeAggregationParams(state: AggregationState, params: URLSearchParams): void {
  if (state.agg) params.set('mode', 'agg');
  if (state.pipeline !== undefined) params.set('pipeline', state.pipeline);
  if (state.off !== undefined && state.off.length > 0) params.set('off', state.off.join(','));
  if (state.show !== undefined) params.set('show', state.show);
  if (state.chart !== undefined) params.set('chart', state.chart);
}

/**
 * The pipeline the aggregation mode starts with when Find had a where: that condition as a
 * `$match`, so the analyst goes on from the records they were looking at. A where that is not a
 * JSON object (the hash is user input) starts no stage.
 */
export function pipelineFromWhere(where: string | undefined): string | undefined {
  if (where === undefined) return undefined;
  try {
    const condition = parseJson(where);
    return isJsonObject(condition) ? JSON.stringify([{ $match: condition }]) : undefined;
  } catch {
    return undefined;
  }
}
