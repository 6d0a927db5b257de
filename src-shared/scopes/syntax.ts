/**
 * Lexical rules shared by every kind of chain: limits, segment patterns, splitting on dots while
 * remembering where each segment starts, and the one way a parser reports a failure.
 */
import type { ChainFailure, TargetIdentifier } from './chain';

/** Longest chain accepted; chains travel inside JWTs and role definitions, so they stay short. */
export const MAX_CHAIN_LENGTH = 512;
/** Most chains one token may carry; far more than any real token needs, small enough to bound the JWT. */
export const MAX_CHAINS_PER_TOKEN = 100;

/** Object type names: `account`, `c_patient_file`. The 64-character cap matches the schema's names. */
export const OBJECT_TYPE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
/** One segment of a property path; the same rule the schema applies before a path reaches storage. */
export const PROPERTY_SEGMENT_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** An instance id: 24 hex digits, either case (stored lower-case). */
export const INSTANCE_ID_PATTERN = /^[0-9a-fA-F]{24}$/;
/** A code naming a view, script route or deployment: `c_my_view`, `weekly-report`. */
export const CODE_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

export interface Segment {
  text: string;
  /** 0-based index among the chain's dot-separated segments. */
  index: number;
  /** 0-based character offset of the segment's first character in the chain. */
  offset: number;
}

export function splitSegments(text: string): Segment[] {
  const segments: Segment[] = [];
  let offset = 0;
  text.split('.').forEach((part, index) => {
    segments.push({ text: part, index, offset });
    offset += part.length + 1;
  });
  return segments;
}

/** Index of the segment that holds character `position`. */
export function segmentIndexAt(text: string, position: number): number {
  let index = 0;
  for (let i = 0; i < position && i < text.length; i++) if (text[i] === '.') index++;
  return index;
}

export function failAt(segment: Segment, reason: string, offsetWithinSegment = 0): ChainFailure {
  return { ok: false, reason, position: segment.offset + offsetWithinSegment, segment: segment.index };
}

/**
 * The reason for an empty segment. A trailing dot reads differently from two dots in a row, and
 * the user fixes them differently, so the two are worded apart.
 */
export function emptySegmentReason(segment: Segment, segmentCount: number, what: string): string {
  return segment.index === segmentCount - 1
    ? `the chain ends with "."; ${what} is missing after it`
    : `${what} is empty (two dots in a row)`;
}

/** `*`, a 24-hex id, or (where codes are allowed) a code name; null when the text is none of them. */
export function readIdentifier(text: string, allowCodes: boolean): TargetIdentifier | null {
  if (text === '*') return { kind: 'any' };
  if (INSTANCE_ID_PATTERN.test(text)) return { kind: 'id', value: text.toLowerCase() };
  if (allowCodes && CODE_PATTERN.test(text)) return { kind: 'code', value: text };
  return null;
}
