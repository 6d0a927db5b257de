import { describe, expect, it } from 'vitest';
import { describeChain, splitChains } from './chain-segments';

describe('describeChain', () => {
  it('parses the spec valid examples segment by segment', () => {
    const name = describeChain('object.read.account.*.name');
    if (!name.ok) throw new Error(name.reason);
    expect(name.segments.map((s) => [s.role, s.text, s.offset])).toEqual([
      ['kind', 'object', 0],
      ['operation', 'read', 7],
      ['object type', 'account', 12],
      ['instance', '*', 20],
      ['property path', 'name', 22],
    ]);
    expect(name.summary).toBe('Grants read on account (every instance), property name only.');

    const script = describeChain('script.execute');
    expect(script.ok && script.segments.map((s) => s.role)).toEqual(['kind', 'action']);

    const view = describeChain('view.execute.c_my_view');
    expect(view.ok && view.segments.at(-1)).toMatchObject({ role: 'identifier', text: 'c_my_view' });
  });

  it('keeps a nested property path as one segment', () => {
    const view = describeChain('object.update.account.*.name.first');
    expect(view.ok && view.segments.at(-1)).toMatchObject({ role: 'property path', text: 'name.first', offset: 24 });
  });

  it('shows an empty operation as every operation', () => {
    const view = describeChain('object..account');
    expect(view.ok && view.segments[1]).toMatchObject({ text: '', meaning: 'every operation (left empty)' });
  });

  it('rejects the spec invalid examples with the reason and the spot', () => {
    const missingId = describeChain('object.read.account.name');
    if (missingId.ok) throw new Error('expected a failure');
    expect(missingId.reason).toContain('an identifier or * is required before a property path');
    expect(missingId.position).toBe(20);
    expect([missingId.before, missingId.mark, missingId.after]).toEqual(['object.read.account.', 'name', '']);

    const deployment = describeChain('deployment.create');
    if (deployment.ok) throw new Error('expected a failure');
    expect(deployment.reason).toContain('object.create.deployment');
    expect(deployment.mark).toBe('create');
    expect(deployment.position).toBe(11);
  });

  it('marks a trailing dot with a visible placeholder', () => {
    const view = describeChain('object.read.');
    if (view.ok) throw new Error('expected a failure');
    expect(view.before).toBe('object.read.');
    expect(view.mark).toBe(' ');
  });
});

describe('splitChains', () => {
  it('splits on lines and commas and drops blanks', () => {
    expect(splitChains(' a.b \n\n c, d ,')).toEqual(['a.b', 'c', 'd']);
  });
});

describe('describeChain with the org schema', () => {
  const types = [
    { name: 'account', collection: 'accounts', paths: ['_id', 'email', 'name', 'name.first'] },
    { name: 'c_note', collection: 'c_notes', paths: ['_id', 'c_text'] },
  ];

  it('marks a chain naming a type the org lacks, with "did you mean"', () => {
    const view = describeChain('object.read.accounts', types);
    expect(view.ok).toBe(false);
    if (view.ok) return;
    expect(view.reason).toContain('did you mean "account"');
    expect(view.mark).toBe('accounts');
    expect(view.before).toBe('object.read.');
  });

  it('marks a missing property and points at it', () => {
    const view = describeChain('object.read.account.*.Email', types);
    expect(view.ok).toBe(false);
    if (view.ok) return;
    expect(view.reason).toContain('did you mean "email"');
    expect(view.mark).toBe('Email');
  });

  it('accepts chains the schema can satisfy, and ignores the schema when not given', () => {
    expect(describeChain('object.read.account.*.name.first', types).ok).toBe(true);
    expect(describeChain('object.read.c_note', types).ok).toBe(true);
    expect(describeChain('*', types).ok).toBe(true);
    expect(describeChain('object.read.accounts').ok).toBe(true);
  });
});
