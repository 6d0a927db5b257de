/** The faults the query language raises, each pointing at the offending spot (`where.$and[1].x`). */
import { fault, type FaultError } from '../faults.js';

export function queryFault(reason: string, path: string): FaultError {
  return fault('invalidArgument', 'query', { message: 'Invalid query.', reason, path });
}

export function exactMatchingFault(reason: string, path: string): FaultError {
  return fault('unsupportedOperation', 'exactMatching', {
    message: 'Matching a whole array or document is not supported.',
    reason,
    path,
  });
}

export function unsupportedFault(reason: string, path: string): FaultError {
  return fault('unsupportedOperation', undefined, { reason, path });
}

export function invalidObjectIdFault(reason: string, path: string): FaultError {
  return fault('invalidArgument', 'invalidObjectId', { message: 'Invalid ObjectId.', reason, path });
}

/** Appends an object key to a fault path. */
export function childPath(parent: string, key: string): string {
  return `${parent}.${key}`;
}

/** Appends an array index to a fault path. */
export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
