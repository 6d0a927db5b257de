import { describe, expect, it } from 'vitest';
import { parseRoute, serializeRoute } from '../../../app/screens';
import type { BrowseRoute } from '../../../routing/route';
import { DEFAULT_BROWSE_STATE } from '../browse-route';
import { parseAggregationParams, pipelineFromWhere } from './agg-route';

describe('aggregation route', () => {
  it('round-trips the aggregation fields through the hash', () => {
    const route: BrowseRoute = {
      screen: 'browse',
      ...DEFAULT_BROWSE_STATE,
      collection: 'accounts',
      agg: true,
      pipeline: '[{"$match":{"locale":"en_US"}},{"$group":{"_id":"locale","count":{"$sum":1}}}]',
      off: [0],
      show: 'chart',
      chart: 'line',
    };
    expect(parseRoute(serializeRoute(route))).toEqual(route);
  });

  it('keeps only well-formed values from a hand-made hash', () => {
    const params = new URLSearchParams({
      mode: 'aggregate',
      pipeline: 'x'.repeat(20_001),
      off: '1,a',
      show: 'pie',
      chart: 'pie',
    });
    expect(parseAggregationParams(params)).toEqual({});
    expect(parseAggregationParams(new URLSearchParams('mode=agg&off=3,1,3'))).toEqual({ agg: true, off: [1, 3] });
  });

  it("starts the pipeline with the find mode's where as a $match, or with nothing", () => {
    expect(pipelineFromWhere('{"locale":"en_US"}')).toBe('[{"$match":{"locale":"en_US"}}]');
    expect(pipelineFromWhere(undefined)).toBeUndefined();
    expect(pipelineFromWhere('{"a":1}]},{"$out":"x"}')).toBeUndefined();
    expect(pipelineFromWhere('[1]')).toBeUndefined();
  });
});
