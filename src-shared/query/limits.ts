/** Hard limits of the list-query language (docs/query-semantics.md). Named so faults and docs can cite them. */

/** Items in one `$in`, `$nin` or `$all` array. */
export const MAX_IN_ITEMS = 10_000;
/** Conditions in one `$and` or `$or` array. */
export const MAX_LOGICAL_CONDITIONS = 100;
/** Nesting of `$and` / `$or` / `$elemMatch`. */
export const MAX_DEPTH = 20;
export const MAX_SKIP = 500_000;
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
/** Keys in one sort object. */
export const MAX_SORT_KEYS = 10;
/** `$regex` pattern length (characters between the slashes). */
export const MIN_REGEX_LENGTH = 1;
export const MAX_REGEX_LENGTH = 255;
/** Entries of `paths[]`. */
export const MAX_PROJECTION_PATHS = 100;
/** Raw `where` / `sort` text, in characters; enough for 10,000 `$in` ids. */
export const MAX_QUERY_TEXT_LENGTH = 1_000_000;
/** Nesting of arrays/objects in the JSON text itself (guards the recursive parser). */
export const MAX_JSON_NESTING = 64;

/** Aggregation pipelines (the original's ParserConsts): stages in one pipeline. */
export const MAX_PIPELINE_STAGES = 20;
/** Nesting of expressions (operators inside operators, documents inside documents). */
export const MAX_EXPRESSION_DEPTH = 20;
/** Keys of one expression object (a `$project`, a `$group`, a document of values). */
export const MAX_EXPRESSION_KEYS = 100;
/** `$skip` and `$limit` stages (the original's MAX_SKIP and MAX_LIMIT for pipelines). */
export const MAX_STAGE_SKIP = 500_000;
export const MAX_STAGE_LIMIT = 500_000;
/** Raw `pipeline` / `group` text, in characters. */
export const MAX_PIPELINE_TEXT_LENGTH = 100_000;
/** Names of output fields: letters, digits and `_`, not starting with a digit, at most 40. */
export const OUTPUT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
/** References expanded one inside another (`expand[]=a.b.c.d`). */
export const MAX_EXPANSION_DEPTH = 4;
/** Entries of `expand[]` and of `include[]`. */
export const MAX_EXPANSION_PATHS = 100;
