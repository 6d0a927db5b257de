import { describe, expect, it } from 'vitest';
import { driverCallCommand, scriptCall, tokenCurlCommand } from '../query-builder/request-url';
import type { JsonValue } from '../../../../src-shared/query/json';
import { aggregationUrl } from './aggregation-url';

const stages: JsonValue[] = [{ $match: { locale: 'en_US' } }, { $group: { _id: 'locale', count: { $sum: 1 } } }];

describe('an aggregation as a request and as commands', () => {
  const url = aggregationUrl('http://127.0.0.1:7788', 'demo', 'accounts', stages, 50);

  it('sends the pipeline as one url-encoded JSON array with the page size', () => {
    const parsed = new URL(url);
    expect(parsed.pathname).toBe('/demo/v2/accounts');
    expect(JSON.parse(parsed.searchParams.get('pipeline') ?? '')).toEqual(stages);
    expect(parsed.searchParams.get('limit')).toBe('50');
    expect(url).not.toContain('pipeline[]');
  });

  it('copies as curl with a token, as the driver cursor and as a script', () => {
    expect(tokenCurlCommand(url, 'KEY')).toContain(`'${url}'`);
    expect(driverCallCommand(url, 'KEY')).toContain(
      `--data '{"limit":50,"pipeline":[{"$match":{"locale":"en_US"}},{"$group":{"_id":"locale","count":{"$sum":1}}}]}' ` +
        `'http://127.0.0.1:7788/demo/v2/accounts/db/cursor'`,
    );
    const script = scriptCall(url, 'accounts');
    expect(script.startsWith('return org.objects.accounts.aggregate([')).toBe(true);
    expect(script).toContain('"$group": {');
    expect(script.endsWith(']).limit(50)\n  .toArray();\n'.replace(']).', '])\n  .'))).toBe(true);
    // The script's pipeline is the same pipeline.
    const inner = script.slice(script.indexOf('(') + 1, script.indexOf(')\n'));
    expect(JSON.parse(inner)).toEqual(stages);
  });
});
