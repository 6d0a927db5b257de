import {
  DEFAULT_LIMIT,
  MAX_EXPANSION_DEPTH,
  MAX_LIMIT,
  MAX_PIPELINE_STAGES,
  MAX_SKIP,
} from '../../../../src-shared/query/limits.js';
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
    description:
      'Answer only these property paths (repeat the argument for each path). A path into a reference ' +
      '(owner.name.first) expands the reference and shows those members of the referenced record.',
    schema: { type: 'array', items: { type: 'string' } },
  },
  {
    name: 'expand[]',
    description:
      'References to replace with the records they reference, read as the caller (what they may not read stays the ' +
      `bare reference); a.b expands b inside a, at most ${MAX_EXPANSION_DEPTH} deep. One query per referenced object ` +
      'per depth for the whole page (docs/query-semantics.md, "References").',
    schema: { type: 'array', items: { type: 'string' } },
  },
  {
    name: 'include[]',
    description:
      'Optional members to add: list properties (connections), which a collection list leaves out otherwise.',
    schema: { type: 'array', items: { type: 'string' } },
  },
  {
    name: 'pipeline',
    description:
      `An aggregation: a JSON array of at most ${MAX_PIPELINE_STAGES} stages ($match, $sort, $skip, $limit, $project, ` +
      '$addFields, $group, $unwind, $count, $sortByCount), property paths written bare (name.last, never $name.last). ' +
      'The caller reads only what they may; the answer is a list of the output documents. Not with where, sort, ' +
      'group, paths[], expand[] or include[] (docs/query-semantics.md, "Aggregation"). ' +
      'Example: [{"$group":{"_id":"name.last","count":{"$count":"_id"}}}].',
    schema: { type: 'string', contentMediaType: 'application/json' },
  },
  {
    name: 'group',
    description:
      'A $group expression (or a bare property name to group by), applied after where; sort may then name its ' +
      'outputs. Example: {"_id":"locale","count":{"$sum":1}} with sort={"count":-1}.',
    schema: { type: 'string' },
  },
];

/** `paths[]`, `expand[]` and `include[]`: the selection of a one-record read. */
export const PATHS_ARGUMENT: readonly QueryParamDoc[] = LIST_ARGUMENTS.filter((a) =>
  ['paths[]', 'expand[]', 'include[]'].includes(a.name),
);
