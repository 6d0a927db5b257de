/**
 * The value of a literal expression in a script's syntax tree (strings, numbers, booleans, null,
 * template strings without substitutions, arrays and plain objects of those), or DYNAMIC when it
 * can only be known by running the script. Used to read decorator options at save time without
 * running anything.
 */
import type { BabelNode } from './babel.js';

export const DYNAMIC = Symbol('dynamic');
export type StaticValue = string | number | boolean | null | StaticValue[] | { [key: string]: StaticValue };

const MAX_DEPTH = 20;

/**
 * `dynamic`, when given, stands in for each part that is not a literal (a decorator's `if` may name
 * a constant of another library): the value is then never DYNAMIC at the top.
 */
export function staticValue(
  node: BabelNode | null | undefined,
  depth = 0,
  dynamic?: (node: BabelNode) => StaticValue,
): StaticValue | typeof DYNAMIC {
  if (!node || depth > MAX_DEPTH) return DYNAMIC;
  const inner = (n: BabelNode | null | undefined): StaticValue | typeof DYNAMIC => {
    const v = staticValue(n, depth + 1, dynamic);
    return v === DYNAMIC && dynamic && n ? dynamic(n) : v;
  };
  switch (node.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
      return node.value as string | number | boolean;
    case 'NullLiteral':
      return null;
    case 'TemplateLiteral': {
      const expressions = node.expressions as BabelNode[];
      const quasis = node.quasis as { value: { cooked: string } }[];
      return expressions.length === 0 ? quasis.map((q) => q.value.cooked).join('') : DYNAMIC;
    }
    case 'UnaryExpression': {
      const arg = staticValue(node.argument as BabelNode, depth + 1);
      if (node.operator === '-' && typeof arg === 'number') return -arg;
      if (node.operator === '!' && arg !== DYNAMIC) return !arg;
      return DYNAMIC;
    }
    case 'ArrayExpression': {
      const out: StaticValue[] = [];
      for (const el of node.elements as (BabelNode | null)[]) {
        const v = inner(el);
        if (v === DYNAMIC) return DYNAMIC;
        out.push(v);
      }
      return out;
    }
    case 'ObjectExpression': {
      const out: Record<string, StaticValue> = {};
      for (const prop of node.properties as BabelNode[]) {
        if (prop.type !== 'ObjectProperty' || prop.computed) return DYNAMIC;
        const key = prop.key as BabelNode;
        const name =
          key.type === 'Identifier' ? (key.name as string) : key.type === 'StringLiteral' ? (key.value as string) : '';
        if (!name || name === '__proto__') return DYNAMIC;
        const v = inner(prop.value as BabelNode);
        if (v === DYNAMIC) return DYNAMIC;
        out[name] = v;
      }
      return out;
    }
    default:
      return DYNAMIC;
  }
}
