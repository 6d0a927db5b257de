/** A custom property being typed into the schema forms: its draft, checks and request. Pure. */
import { CUSTOM_NAME_PATTERN, PROPERTY_TYPES, type PropertyType } from '../../../src-shared/schema/types';
import type { NewPropertyRequest } from '../../api/schemas';

/** Every type a custom property may have; Reference and List also name the object they point to. */
export const NEW_TYPES: readonly PropertyType[] = PROPERTY_TYPES;

export interface PropertyDraft {
  suffix: string;
  type: PropertyType;
  indexed: boolean;
  unique: boolean;
  array: boolean;
  /** Reference and List: the object referred to. */
  refObject: string;
}

export const EMPTY_PROPERTY: PropertyDraft = {
  suffix: '',
  type: 'String',
  indexed: true,
  unique: false,
  array: false,
  refObject: '',
};

/** Types that point at another object. */
export function refersToObject(type: PropertyType): boolean {
  return type === 'Reference' || type === 'List';
}

/** A List or a Document cannot be indexed (the service refuses it): the form says so up front. */
export function indexable(type: PropertyType): boolean {
  return type !== 'List' && type !== 'Document';
}

export function toRequest(draft: PropertyDraft): NewPropertyRequest {
  const request: NewPropertyRequest = { name: `c_${draft.suffix}`, type: draft.type };
  if (draft.indexed && indexable(draft.type)) request.indexed = true;
  if (draft.unique && indexable(draft.type)) request.unique = true;
  if (draft.array && draft.type !== 'List') request.array = true;
  if (draft.type === 'Document') request.properties = [];
  if (refersToObject(draft.type)) request.refObject = draft.refObject;
  return request;
}

/**
 * Why a custom name is refused, in words: `c_` + 1–60 lower-case letters, digits and `_` (the
 * prefix keeps custom names apart from the built-in ones; the service applies the same pattern).
 */
export function nameProblem(suffix: string): string | null {
  if (suffix === '') return 'Enter a name.';
  if (CUSTOM_NAME_PATTERN.test(`c_${suffix}`)) return null;
  if (suffix.length > 60) return `At most 60 characters after c_ (${suffix.length} now).`;
  const upper = /[A-Z]/.exec(suffix);
  if (upper) return `Names are lower case: "${upper[0]}" would be "${upper[0].toLowerCase()}".`;
  const bad = /[^a-z0-9_]/.exec(suffix);
  if (bad) {
    const shown = bad[0] === ' ' ? 'a space' : bad[0] === '.' ? '"." (it separates path segments)' : `"${bad[0]}"`;
    return `${shown} is not allowed: use lower-case letters, digits and _ only.`;
  }
  return 'Use lower-case letters, digits and _ only.';
}

/** The draft's first problem, or null when it can be sent. */
export function draftProblem(draft: PropertyDraft): string | null {
  const name = nameProblem(draft.suffix);
  if (name) return name;
  if (refersToObject(draft.type) && draft.refObject === '') return `A ${draft.type} names the object it refers to.`;
  return null;
}
