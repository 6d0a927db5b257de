import { describe, expect, it } from 'vitest';
import { currentArguments, whereConditions, whereTemplate } from './view-drafts';
import { viewVariables } from './views';

const where = {
  c_status: 'open',
  c_count: { $gt: 3, $lt: 10 },
  'name.last': { $regex: '/^s/i' },
  $or: [{ a: 1 }],
};

describe('whereConditions', () => {
  it('lists each property condition, one per operator, and keeps groups whole', () => {
    const conditions = whereConditions(where);
    expect(conditions.map((c) => [c.label, c.suggestedName, c.variable])).toEqual([
      ['c_status = "open"', 'c_status', true],
      ['c_count $gt 3', 'c_count_gt', true],
      ['c_count $lt 10', 'c_count_lt', true],
      ['name.last $regex "/^s/i"', 'last_regex', true],
      ['$or [{"a":1}]', 'or', false],
    ]);
    expect(whereConditions(undefined)).toEqual([]);
  });
});

describe('whereTemplate', () => {
  it('quotes string variables, leaves others bare, and keeps unchosen conditions as they are', () => {
    const text = whereTemplate(where, [
      { path: ['c_status'], name: 'status' },
      { path: ['c_count', '$gt'], name: 'min' },
    ]);
    expect(text).toBe(
      '{"c_status":"{{status}}","c_count":{"$gt":{{min}},"$lt":10},"name.last":{"$regex":"/^s/i"},"$or":[{"a":1}]}',
    );
    expect(viewVariables({ query: [{ name: 'where', value: text }] })).toEqual(['status', 'min']);
    expect(where.c_status).toBe('open'); // the browser's own query is not changed
  });

  it('does not mistake typed text for a variable marker', () => {
    expect(whereTemplate({ c_note: '{{x}}', c_status: 'a' }, [{ path: ['c_status'], name: 's' }])).toBe(
      '{"c_note":"{{x}}","c_status":"{{s}}"}',
    );
  });

  it('gives the arguments that reproduce the browser result', () => {
    const conditions = whereConditions(where);
    const chosen = new Map([
      [conditions[0]!.id, 'status'],
      [conditions[1]!.id, 'min'],
    ]);
    expect(currentArguments(conditions, chosen)).toEqual({ status: 'open', min: '3' });
  });
});
