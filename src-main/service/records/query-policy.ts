/**
 * How an org's queries are parsed, decided once for every reader (REST lists, the driver API,
 * views): the org setting `disableNegation` refuses `$ne` and `$nin`. Two frozen answers, so no
 * request builds one (the parsed-list cache keys on it too, query/parsed-lists.ts).
 */
import type { ParseOptions } from '../../../src-shared/query/parse-where.js';
import type { Org } from '../orgs/orgs.js';

const NEGATIONS_ALLOWED: ParseOptions = Object.freeze({ allowNegations: true });
const NEGATIONS_REFUSED: ParseOptions = Object.freeze({ allowNegations: false });

export function queryPolicy(org: Pick<Org, 'settings'>): ParseOptions {
  return org.settings.disableNegation ? NEGATIONS_REFUSED : NEGATIONS_ALLOWED;
}
