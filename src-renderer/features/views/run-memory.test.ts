import { describe, expect, it } from 'vitest';
import { rememberArguments, rememberedArguments, startingArguments } from './run-memory';

describe('run memory', () => {
  it('keeps the last arguments per org and view, as copies', () => {
    const values = { status: 'open' };
    rememberArguments('demo', 'v1', values);
    values.status = 'changed';
    expect(rememberedArguments('demo', 'v1')).toEqual({ status: 'open' });
    expect(rememberedArguments('other', 'v1')).toEqual({});
  });

  it('forgets the oldest view past its bound', () => {
    for (let i = 0; i < 60; i++) rememberArguments('demo', `bulk${i}`, { n: String(i) });
    expect(rememberedArguments('demo', 'bulk0')).toEqual({});
    expect(rememberedArguments('demo', 'bulk59')).toEqual({ n: '59' });
  });

  it('starts a run form from the argument last run, else the declared default of the view', () => {
    const view = {
      name: 'by_last',
      variables: [
        { name: 'last_regex', defaultValue: '/^Sm/', description: 'A regex' },
        { name: 'status', description: 'No default' },
        { name: 'order', defaultValue: '1' },
      ],
    };
    expect(startingArguments('demo', view)).toEqual({ last_regex: '/^Sm/', order: '1' });
    rememberArguments('demo', 'by_last', { last_regex: '/^St/', status: '' });
    expect(startingArguments('demo', view)).toEqual({ last_regex: '/^St/', status: '', order: '1' });
    expect(startingArguments('other', view)).toEqual({ last_regex: '/^Sm/', order: '1' });
    expect(startingArguments('demo', { name: 'by_last' })).toEqual({ last_regex: '/^St/', status: '' });
  });
});
