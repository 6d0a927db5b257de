/** Public surface of the list-query language, shared by the service and the console. */
export * from './ast.js';
export * from './limits.js';
export * from './parse.js';
export { parseJson, JsonSyntaxError, type JsonValue, type JsonObject } from './json.js';
export { matchesCondition, runListQuery, compareRecords, readPath, type JsonRecord } from './evaluate.js';
export { projectPaths } from './project.js';
export { effectiveSort, ID_FIELD } from './ordering.js';
export { compareCodePoints, compareSqlValues } from './compare.js';
export {
  splitRegexLiteral,
  stripExtendedSyntax,
  effectiveRegexSource,
  compileRegex,
  createRegexMatcher,
} from './regex.js';
