import { describe, expect, it } from 'vitest';
import { draftProblem, EMPTY_PROPERTY, nameProblem, toRequest } from './property-draft';

describe('custom property drafts', () => {
  it('explains why a name is refused', () => {
    expect(nameProblem('visit_date')).toBeNull();
    expect(nameProblem('')).toBe('Enter a name.');
    expect(nameProblem('Visit')).toContain('lower case: "V" would be "v"');
    expect(nameProblem('visit date')).toContain('a space is not allowed');
    expect(nameProblem('visit.date')).toContain('separates path segments');
    expect(nameProblem('x'.repeat(61))).toContain('At most 60 characters');
  });

  it('sends Reference and List with the object they refer to, and never indexes a List', () => {
    expect(draftProblem({ ...EMPTY_PROPERTY, suffix: 'owner', type: 'Reference' })).toContain('names the object');
    expect(toRequest({ ...EMPTY_PROPERTY, suffix: 'owner', type: 'Reference', refObject: 'account' })).toEqual({
      name: 'c_owner',
      type: 'Reference',
      indexed: true,
      refObject: 'account',
    });
    expect(toRequest({ ...EMPTY_PROPERTY, suffix: 'visits', type: 'List', refObject: 'c_visit', array: true })).toEqual(
      {
        name: 'c_visits',
        type: 'List',
        refObject: 'c_visit',
      },
    );
  });
});
