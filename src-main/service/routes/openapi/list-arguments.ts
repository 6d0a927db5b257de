import { DEFAULT_LIMIT, MAX_LIMIT, MAX_SKIP } from '../../../../src-shared/query/limits.js';
import type { QueryParamDoc } from './operation-doc.js';

const skip: QueryParamDoc = {
  name: 'skip',
  description: `Records to pass over before the page starts (0 to ${MAX_SKIP}). For deep paging, sort by _id and filter on _id $gt the last one seen.`,
  schema: { type: 'string', pattern: '^[0-9]+$' },
};

const limit: QueryParamDoc = {
  name: 'limit',
  description: `Records per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); out of range is refused, never clamped.`,
  schema: { type: 'string', pattern: '^[0-9]+$' },
};

/** `skip` and `limit` of a plain paged list. */
export const PAGE_ARGUMENTS: readonly QueryParamDoc[] = [skip, limit];

/**
 * The list arguments of every record list (docs/query-semantics.md). A list property of the
 * records takes the same arguments prefixed with its name and a dot (`connections.where`).
 */
export const LIST_ARGUMENTS: readonly QueryParamDoc[] = [
  {
    name: 'where',
    description:
      'A JSON object of conditions on indexed properties: $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $all, ' +
      '$exists, $regex, $size, $elemMatch, combined with $and, $or (docs/query-semantics.md). ' +
      'Example: {"name.last":{"$regex":"/^s/i"}}.',
    schema: { type: 'string', contentMediaType: 'application/json' },
  },
  {
    name: 'sort',
    description:
      'An indexed property name, or a JSON object of property names to 1 (ascending) or -1 (descending). ' +
      'Example: {"created":-1}.',
    schema: { type: 'string' },
  },
  skip,
  limit,
  {
    name: 'paths[]',
    description: 'Answer only these property paths (repeat the argument for each path).',
    schema: { type: 'array', items: { type: 'string' } },
  },
];

/** `paths[]` alone: the projection of a one-record read. */
export const PATHS_ARGUMENT: readonly QueryParamDoc[] = LIST_ARGUMENTS.filter((a) => a.name === 'paths[]');
