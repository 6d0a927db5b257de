/**
 * The visual builder's model: a tree of `$and`/`$or` groups and field conditions, and its two-way
 * mapping to a `where` document.
 *
 * `toWhere` writes the plainest equivalent JSON (conditions of an `$and` group merged into one
 * object, `$eq` as a bare value); `fromWhere` reads any document of that shape back, so a builder
 * tree survives builder → JSON → builder. It reports, rather than guesses, what it cannot show.
 */
import { FIELD_OPERATORS, type BuilderOperator, type FieldOperator } from './operators';
import { isPrefixOperator, prefixOf, prefixRegex } from './starts-with';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type WhereDocument = { [key: string]: JsonValue };
export type Logic = '$and' | '$or';

export interface ConditionNode {
  kind: 'condition';
  id: string;
  path: string;
  op: BuilderOperator;
  /** The operand exactly as it goes into the JSON (for "starts with": the text, see `jsonOperand`). */
  value: JsonValue;
  /**
   * How the JSON wrote it: `{"a": {"$eq": 1}}` ('operator') or `{"a": 1}` ('bare'). Kept so a
   * query read from JSON is written back exactly as it came; absent for conditions the builder made.
   */
  written?: 'bare' | 'operator';
}

export interface GroupNode {
  kind: 'group';
  id: string;
  logic: Logic;
  children: BuilderNode[];
  /**
   * How the JSON wrote an `$and`: as `{"$and": [...]}` ('array') or as the keys of one object
   * ('object'). Absent for groups the builder made, which are written in the plainest form.
   */
  written?: 'array' | 'object';
}

export type BuilderNode = ConditionNode | GroupNode;

let nextId = 0;
/** Node ids are for React keys and edits only; they never reach the JSON. */
export function newId(): string {
  nextId += 1;
  return `n${nextId}`;
}

export function emptyGroup(logic: Logic = '$and'): GroupNode {
  return { kind: 'group', id: newId(), logic, children: [] };
}

export function condition(path: string, op: BuilderOperator, value: JsonValue): ConditionNode {
  return { kind: 'condition', id: newId(), path, op, value };
}

export function group(logic: Logic, children: BuilderNode[]): GroupNode {
  return { kind: 'group', id: newId(), logic, children };
}

// ---------------------------------------------------------------- builder → where

/** The root group as a where document (`{}` when it has no conditions). */
export function toWhere(root: GroupNode): WhereDocument {
  if (root.children.length === 0) return {};
  return groupToObject(root);
}

function groupToObject(node: GroupNode): WhereDocument {
  if (node.logic === '$or' || (node.written === 'array' && node.children.length > 0)) {
    return { [node.logic]: node.children.map(nodeToObject) };
  }
  return mergeAnd(node.children) ?? { $and: node.children.map(nodeToObject) };
}

function nodeToObject(node: BuilderNode): WhereDocument {
  return node.kind === 'group' ? groupToObject(node) : { [node.path]: conditionOperand(node) };
}

function conditionOperand(node: ConditionNode): JsonValue {
  const [op, operand] = jsonOperand(node);
  return op === '$eq' && node.written !== 'operator' && !isPlainObject(operand) && !Array.isArray(operand)
    ? operand
    : { [op]: operand };
}

/** The condition's operator and operand as the JSON writes them: "starts with" is a `$regex`. */
export function jsonOperand(node: Pick<ConditionNode, 'op' | 'value'>): [FieldOperator, JsonValue] {
  if (isPrefixOperator(node.op)) {
    return ['$regex', prefixRegex(typeof node.value === 'string' ? node.value : '', node.op)];
  }
  return [node.op, node.value];
}

/**
 * The children of an `$and` group as one object, when that is unambiguous: each path and each
 * logical key at most once per object, operators on one path at most once each. Else undefined.
 */
function mergeAnd(children: BuilderNode[]): WhereDocument | undefined {
  const out: WhereDocument = {};
  for (const child of children) {
    if (child.kind === 'group') {
      if (child.children.length === 0 || child.logic in out) return undefined;
      out[child.logic] = child.children.map(nodeToObject);
      continue;
    }
    const existing = out[child.path];
    if (existing === undefined) {
      out[child.path] = conditionOperand(child);
      continue;
    }
    // A second condition on the same path joins the first one's operator object.
    const ops: WhereDocument = isOperatorObject(existing) ? { ...existing } : { $eq: existing };
    const [op, operand] = jsonOperand(child);
    if (op in ops) return undefined;
    ops[op] = operand;
    out[child.path] = ops;
  }
  return out;
}

// ---------------------------------------------------------------- where → builder

export type FromWhereResult = { ok: true; root: GroupNode } | { ok: false; reason: string };

/** Reads a where document into a builder tree, or says why the builder cannot show it. */
export function fromWhere(document: unknown): FromWhereResult {
  if (!isPlainObject(document)) return { ok: false, reason: 'where must be a JSON object.' };
  try {
    const node = nodeFromObject(document);
    if (node === undefined) return { ok: true, root: emptyGroup() };
    return { ok: true, root: node.kind === 'group' ? node : { ...group('$and', [node]), written: 'object' } };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function nodeFromObject(object: Record<string, JsonValue>): BuilderNode | undefined {
  const keys = Object.keys(object);
  if (keys.length === 1 && (keys[0] === '$and' || keys[0] === '$or')) {
    return logicalGroup(keys[0], object[keys[0]]);
  }
  const nodes: BuilderNode[] = [];
  for (const key of keys) {
    const value = object[key] as JsonValue;
    if (key === '$and' || key === '$or') nodes.push(logicalGroup(key, value));
    else if (key.startsWith('$')) throw new Error(`${key} is not a logical operator the builder knows.`);
    else nodes.push(...conditionsFor(key, value));
  }
  if (nodes.length === 0) return undefined;
  return nodes.length === 1 ? nodes[0] : { ...group('$and', nodes), written: 'object' };
}

function logicalGroup(logic: Logic, items: JsonValue | undefined): GroupNode {
  if (!Array.isArray(items)) throw new Error(`${logic} must be an array of conditions.`);
  const children = items.map((item, index) => {
    if (!isPlainObject(item)) throw new Error(`${logic}[${index}] must be a condition object.`);
    return nodeFromObject(item) ?? emptyGroup();
  });
  return { ...group(logic, children), written: 'array' };
}

function conditionsFor(path: string, value: JsonValue): ConditionNode[] {
  if (!isOperatorObject(value)) {
    if (isPlainObject(value) || Array.isArray(value)) {
      throw new Error(`"${path}" is matched against a whole document or array; use an operator.`);
    }
    return [{ ...condition(path, '$eq', value), written: 'bare' }];
  }
  return Object.entries(value).map(([op, operand]) => {
    if (!(FIELD_OPERATORS as readonly string[]).includes(op)) {
      throw new Error(`${op} on "${path}" is not an operator the builder knows.`);
    }
    // An anchored, escaped literal is a "starts with" (and is written back exactly so).
    const prefix = op === '$regex' ? prefixOf(operand) : null;
    if (prefix) return { ...condition(path, prefix.op, prefix.text), written: 'operator' as const };
    return { ...condition(path, op as FieldOperator, operand), written: 'operator' as const };
  });
}

export function isPlainObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{"$gt": 1, "$lt": 5}`: a non-empty object whose keys are all operators. */
function isOperatorObject(value: unknown): value is Record<string, JsonValue> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

// ---------------------------------------------------------------- edits (immutable)

/** Replaces the node with `id` (anywhere in the tree) by `update(node)`; `null` removes it. */
export function updateNode(root: GroupNode, id: string, update: (node: BuilderNode) => BuilderNode | null): GroupNode {
  const visit = (node: GroupNode): GroupNode => ({
    ...node,
    children: node.children.flatMap((child) => {
      if (child.id === id) {
        const next = update(child);
        return next === null ? [] : [next];
      }
      return child.kind === 'group' ? [visit(child)] : [child];
    }),
  });
  if (root.id === id) {
    const next = update(root);
    return next && next.kind === 'group' ? next : emptyGroup(root.logic);
  }
  return visit(root);
}

export function appendChild(root: GroupNode, groupId: string, child: BuilderNode): GroupNode {
  return updateNode(root, groupId, (node) =>
    node.kind === 'group' ? { ...node, children: [...node.children, child] } : node,
  );
}

export function removeNode(root: GroupNode, id: string): GroupNode {
  return updateNode(root, id, () => null);
}

/** Number of conditions in the tree (for labels like "3 conditions"). */
export function countConditions(node: BuilderNode): number {
  return node.kind === 'condition' ? 1 : node.children.reduce((sum, child) => sum + countConditions(child), 0);
}
