/**
 * Whether the builder can show a condition exactly as it stands in the JSON, and with which
 * operator choices. The service's parser accepts more than the builder offers (`$gt` on a Boolean,
 * a path spelt differently); such a condition is shown as it is written and marked "edit as JSON",
 * never silently replaced by the nearest thing the builder offers.
 */
import { normaliseIsoDate } from '../../../../src-shared/query/values';
import type { ConditionNode, JsonValue } from './builder-state';
import { isPlainObject } from './builder-state';
import { isListOperator, operatorsFor, type BuilderOperator, type QueryablePath } from './operators';
import { STARTS_WITH, STARTS_WITH_ANY_CASE } from './starts-with';
import { isoToPicker, pickerToIso } from './values';

export type ConditionView =
  { kind: 'editable'; field: QueryablePath; operators: BuilderOperator[] } | { kind: 'json-only'; reason: string };

export function conditionView(node: ConditionNode, fields: readonly QueryablePath[]): ConditionView {
  const field = fields.find((f) => f.path === node.path);
  if (!field) return { kind: 'json-only', reason: `"${node.path}" is not in the builder's property list.` };
  const offered = operatorsFor(field);
  const problem = operandProblem(field, node.op, node.value);
  if (problem) return { kind: 'json-only', reason: problem };
  // An operator the service accepts but the builder does not offer for this type stays selected.
  return { kind: 'editable', field, operators: offered.includes(node.op) ? offered : [...offered, node.op] };
}

/** Why the value editor for `op` could not show `value` exactly, or null when it can. */
export function operandProblem(
  field: Pick<QueryablePath, 'type'>,
  op: BuilderOperator,
  value: JsonValue,
): string | null {
  switch (op) {
    case '$exists':
      return typeof value === 'boolean' ? null : '$exists takes true or false.';
    case '$size':
      return typeof value === 'number' && Number.isSafeInteger(value) ? null : '$size takes a whole number.';
    case '$regex':
      return typeof value === 'string' ? null : '$regex takes a /pattern/flags string.';
    case STARTS_WITH:
    case STARTS_WITH_ANY_CASE:
      return typeof value === 'string' ? null : 'starts with takes text.';
    case '$elemMatch':
      return isPlainObject(value) ? null : '$elemMatch takes a condition object.';
    default:
      if (isListOperator(op)) {
        if (!Array.isArray(value)) return `${op} takes a list of values.`;
        for (const item of value) {
          const itemProblem = scalarProblem(field.type, item);
          if (itemProblem) return itemProblem;
        }
        return null;
      }
      return scalarProblem(field.type, value);
  }
}

function scalarProblem(type: string, value: JsonValue): string | null {
  if (value === null) {
    return type === 'Date' ? 'A null date (missing value) has no date picker form.' : null;
  }
  switch (type) {
    case 'Boolean':
      return typeof value === 'boolean' ? null : 'Not a true/false value.';
    case 'Number':
      return typeof value === 'number' ? null : 'Not a number.';
    case 'Integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? null : 'Not a whole number.';
    case 'Date': {
      const stored = typeof value === 'string' ? normaliseIsoDate(value) : undefined;
      if (stored === undefined) return 'Not an ISO 8601 date.';
      // The picker shows UTC to the millisecond; the same instant is the same query.
      return pickerToIso(isoToPicker(value)) === stored ? null : `The date picker cannot show ${value} exactly.`;
    }
    case 'ObjectId':
    case 'Reference':
      return typeof value === 'string' ? null : 'Not an id.';
    default:
      return typeof value === 'string' ? null : 'Not text.';
  }
}
