import { describe, expect, it } from 'vitest';
import { rememberArguments, rememberedArguments } from './run-memory';

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
});
