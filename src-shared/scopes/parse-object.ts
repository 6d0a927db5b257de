/**
 * `object.<operation>.<type[#subtype]>.<* | instance id>.<property.path>`
 *
 * Shorter forms are valid and mean "all" for what they leave out: `object.read.account` (every
 * instance), `object.read` (every type), `object` (everything on objects). The spec calls the
 * property path optional and requires an identifier only "before a property", which only makes
 * sense if the identifier is otherwise optional too; and a chain that narrows step by step is the
 * reading under which roles written for the original system (`object.read`) keep working.
 *
 * Deliberately strict where the spec gives one spelling:
 * - `*` is not an operation: the spec's way to grant every operation is the empty one (`object..x`).
 * - `*` is not an object type: stopping after the operation (`object.read`) already covers every type.
 * - `object.create` cannot name one instance, which does not exist before it is created.
 */
import { OBJECT_OPERATIONS, type ObjectChain, type ObjectOperation, type ParsedChain } from './chain';
import {
  OBJECT_TYPE_PATTERN,
  PROPERTY_SEGMENT_PATTERN,
  emptySegmentReason,
  failAt,
  readIdentifier,
  type Segment,
} from './syntax';

const ALL_OPERATIONS_HINT = 'leave the operation empty to grant every operation (object..account)';

export function parseObjectChain(source: string, segments: Segment[]): ParsedChain {
  const [, operationSegment, typeSegment, identifierSegment, ...pathSegments] = segments;
  const count = segments.length;
  const chain: ObjectChain = {
    kind: 'object',
    source,
    operation: null,
    objectType: null,
    subtype: null,
    identifier: null,
    propertyPath: null,
  };

  if (operationSegment) {
    const operation = operationSegment.text;
    if (operation === '') {
      // "Leaving the operation empty (two dots)" only reads as such when something follows.
      if (!typeSegment) {
        return failAt(
          operationSegment,
          'the chain ends with "."; write "object" to grant every operation on every type, or name an object type after the two dots (object..account)',
        );
      }
    } else if (isObjectOperation(operation)) {
      chain.operation = operation;
    } else if (operation === '*') {
      return failAt(operationSegment, `"*" is not an operation; ${ALL_OPERATIONS_HINT}`);
    } else {
      return failAt(
        operationSegment,
        `unknown operation "${operation}"; expected create, read, update or delete, or ${ALL_OPERATIONS_HINT}`,
      );
    }
  }

  if (typeSegment) {
    const typeFailure = readObjectType(typeSegment, count, chain);
    if (typeFailure) return typeFailure;
  }

  if (identifierSegment) {
    const text = identifierSegment.text;
    if (text === '') {
      return failAt(
        identifierSegment,
        emptySegmentReason(identifierSegment, count, 'the instance identifier (* or a 24-character hex id)'),
      );
    }
    const identifier = readIdentifier(text, false);
    if (identifier === null || identifier.kind === 'code') {
      return failAt(identifierSegment, identifierReason(source, identifierSegment));
    }
    if (identifier.kind === 'id' && chain.operation === 'create') {
      return failAt(
        identifierSegment,
        'object.create cannot name one instance, which does not exist until it is created; use * instead',
      );
    }
    chain.identifier = identifier;
  }

  if (pathSegments.length > 0) {
    for (const segment of pathSegments) {
      if (segment.text === '') return failAt(segment, emptySegmentReason(segment, count, 'a property path segment'));
      if (segment.text === '*') return failAt(segment, '"*" is not allowed in a property path; name the property');
      if (!PROPERTY_SEGMENT_PATTERN.test(segment.text)) {
        return failAt(
          segment,
          `"${segment.text}" is not a valid property name (letters, digits and _, not starting with a digit)`,
        );
      }
    }
    chain.propertyPath = pathSegments.map((segment) => segment.text).join('.');
  }

  return { ok: true, chain };
}

function isObjectOperation(text: string): text is ObjectOperation {
  return (OBJECT_OPERATIONS as readonly string[]).includes(text);
}

/** Reads `type` or `type#subtype` into `chain`; returns a failure or null. */
function readObjectType(segment: Segment, count: number, chain: ObjectChain): ParsedChain | null {
  if (segment.text === '') return failAt(segment, emptySegmentReason(segment, count, 'the object type'));
  const hash = segment.text.indexOf('#');
  const objectType = hash === -1 ? segment.text : segment.text.slice(0, hash);
  if (objectType === '*') {
    return failAt(
      segment,
      '"*" cannot stand for the object type; end the chain after the operation (object.read) to cover every type',
    );
  }
  if (!OBJECT_TYPE_PATTERN.test(objectType)) {
    return failAt(
      segment,
      `"${objectType}" is not a valid object type name (lower-case letters, digits and _, starting with a letter)`,
    );
  }
  chain.objectType = objectType;
  if (hash === -1) return null;

  const subtype = segment.text.slice(hash + 1);
  if (subtype === '')
    return failAt(segment, `the subtype after "#" is empty; write ${objectType}#<subtype> or drop the "#"`, hash + 1);
  if (!OBJECT_TYPE_PATTERN.test(subtype)) {
    return failAt(
      segment,
      `"${subtype}" is not a valid subtype name (lower-case letters, digits and _, starting with a letter)`,
      hash + 1,
    );
  }
  chain.subtype = subtype;
  return null;
}

/**
 * The spec's own invalid example, `object.read.account.name`, lands here: a property where the
 * identifier belongs. Show the corrected chain, since that is what the user will type next.
 */
function identifierReason(source: string, segment: Segment): string {
  if (PROPERTY_SEGMENT_PATTERN.test(segment.text)) {
    const corrected = `${source.slice(0, segment.offset)}*.${source.slice(segment.offset)}`;
    return `an identifier or * is required before a property path: "${segment.text}" is not * or a 24-character hex instance id (did you mean ${corrected}?)`;
  }
  return `"${segment.text}" is not * or a 24-character hex instance id`;
}
