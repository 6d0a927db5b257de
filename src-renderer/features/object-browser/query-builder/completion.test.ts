import { describe, expect, it } from 'vitest';
import { applyCompletion, keyCompletion } from './completion';

const PATHS = ['email', 'name.first', 'name.last', 'locale', 'created'];
/** The text with `|` as the cursor. */
const at = (marked: string) => ({ text: marked.replace('|', ''), cursor: marked.indexOf('|') });
const complete = (marked: string) => {
  const { text, cursor } = at(marked);
  return keyCompletion(text, cursor, PATHS);
};

describe('keyCompletion', () => {
  it('offers the paths that begin with a quoted key, then those that contain it', () => {
    expect(complete('{"na|')?.options).toEqual(['name.first', 'name.last']);
    expect(complete('{"la|')?.options).toEqual(['name.last']);
    expect(complete('{"|')?.options).toEqual(PATHS);
    expect(complete('{"locale": "de", "cr|')?.options).toEqual(['created']);
  });

  it('works on a bare word in key position, and inside nested $and/$or objects', () => {
    expect(complete('{em|')?.options).toEqual(['email']);
    expect(complete('{"$or": [{"na|')?.options).toEqual(['name.first', 'name.last']);
  });

  it('stays quiet on values, inside arrays of values, and outside any object', () => {
    expect(complete('{"email": "na|')).toBeNull();
    expect(complete('{"locale": {"$in": ["na|')).toBeNull();
    expect(complete('na|')).toBeNull();
    expect(complete('{"email": 1|')).toBeNull();
    expect(complete('{"zz|')).toBeNull();
    // A key already written out in full.
    expect(complete('{"email|": 1}')).toBeNull();
  });

  it('replaces the whole key and adds the colon only when missing', () => {
    const typing = at('{"na|');
    const c = keyCompletion(typing.text, typing.cursor, PATHS);
    if (!c) throw new Error('no completion');
    expect(applyCompletion(typing.text, c, 'name.last')).toEqual({ text: '{"name.last": ', cursor: 14 });
    const editing = at('{"na|me.first": "Ann"}');
    const e = keyCompletion(editing.text, editing.cursor, PATHS);
    if (!e) throw new Error('no completion');
    expect(applyCompletion(editing.text, e, 'name.last').text).toBe('{"name.last": "Ann"}');
    const bare = at('{loc|');
    const b = keyCompletion(bare.text, bare.cursor, PATHS);
    if (!b) throw new Error('no completion');
    expect(applyCompletion(bare.text, b, 'locale').text).toBe('{"locale": ');
  });

  it('is not fooled by quotes and brackets inside strings', () => {
    expect(complete('{"a": "x\\"{", "na|')?.options).toEqual(['name.first', 'name.last']);
    expect(complete('{"a": "[", "em|')?.options).toEqual(['email']);
  });
});
