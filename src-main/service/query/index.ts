export { compileListQuery, pageOf, type CompileOptions } from './compile.js';
export { compileWhere } from './compile-where.js';
export { propertyExpression, assertSafePath } from './expressions.js';
export { registerQueryFunctions, REGEX_CACHE_SIZE } from './functions.js';
export { indexedExpressions, indexStatements, type IndexedExpression } from './indexes.js';
export { regexPrefixRanges, anchoredLiteralPrefix } from './regex-prefix.js';
export type { SqlFragment } from './sql-fragment.js';
