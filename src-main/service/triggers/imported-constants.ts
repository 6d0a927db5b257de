/**
 * A decorated trigger's options may name a constant rather than write it (the original runs the
 * decorator, so `if: {$ne: [{$cache: {$concat: [LinkedFields.KEYS.PUBLISH, '$ROOT._id']}}, true]}`
 * works there); the registrations keep each such part as `{$expression: '<source text>'}`
 * (scripting/language/registrations.ts). Here a part that is a dotted name (`Name.A.B`) is read
 * without running anything, from the syntax trees:
 * - `Name` is bound by the library holding the trigger: `import Name from 'x'`, `import {Name}
 *   from 'x'`, `import * as Name from 'x'`, `const Name = require('x')`, `const {Name} =
 *   require('x')` — `x` being the export name of an active library of the same org, read from
 *   its saved source — or `Name` is a top-level `const`/class of the library itself;
 * - the value is found through `export default`/`module.exports =`, `export const`/`exports.A =`,
 *   object literals and `static` class properties, and must be a literal there.
 * Any other part stays as it was and the `if` refuses it naming it (trigger-condition.ts).
 *
 * When it is read: whenever the org's trigger table is built, i.e. when the library is saved and
 * again after any script of the org changes — so a changed constant applies from the change on,
 * and one that no longer reads makes the trigger answer a fault (docs/scripting.md#triggers).
 *
 * TRUST BOUNDARY: both sources are the org's own scripts; parsing is Babel's (bounded by the
 * script size limit), the walk is bounded in depth and in dotted names.
 */
import { babel, PARSER_OPTIONS, type BabelFile, type BabelNode } from '../scripting/language/babel.js';
import { DYNAMIC, staticValue } from '../scripting/language/static-value.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { libraryScripts } from '../scripting/host-library.js';

/** The saved source of the active library exporting `name`, if any. */
export type LibrarySource = (exportName: string) => string | undefined;

const DOTTED_NAME = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*){0,8}$/;
const MAX_HOPS = 20;

/** The org's active libraries by export name, read once when first asked. */
export function orgLibrarySources(svc: Service, org: Org): LibrarySource {
  let byName: Map<string, string> | undefined;
  return (name) => {
    byName ??= new Map(
      libraryScripts(svc, org)
        .filter((l) => l.active && l.exportName !== undefined)
        .map((l) => [l.exportName!, l.source]),
    );
    return byName.get(name);
  };
}

/** `value` with each `{$expression: 'Name.A.B'}` part that reads as a literal replaced by it. */
export function resolveConstants(value: unknown, source: string, libraries: LibrarySource): unknown {
  let own: BabelFile | null | undefined;
  const ownTree = () => (own === undefined ? (own = parse(source)) : own);
  const walk = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v !== 'object' || depth > 40) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 1 && entries[0]![0] === '$expression' && typeof entries[0]![1] === 'string') {
      const found = readConstant(entries[0]![1], ownTree, libraries);
      return found === DYNAMIC ? v : found;
    }
    return Object.fromEntries(entries.map(([k, x]) => [k, walk(x, depth + 1)]));
  };
  return walk(value, 0);
}

function parse(source: string): BabelFile | null {
  try {
    return babel().core.parseSync(source, {
      babelrc: false,
      configFile: false,
      sourceType: 'unambiguous',
      parserOpts: PARSER_OPTIONS,
    });
  } catch {
    return null;
  }
}

type Found = ReturnType<typeof staticValue>;

function readConstant(text: string, ownTree: () => BabelFile | null, libraries: LibrarySource): Found {
  const trimmed = text.trim();
  if (!DOTTED_NAME.test(trimmed)) return DYNAMIC;
  const [name, ...members] = trimmed.split('.');
  const tree = ownTree();
  if (!tree) return DYNAMIC;
  const binding = importBinding(tree, name!);
  let node: BabelNode | undefined;
  let file = tree;
  if (binding) {
    const imported = libraries(binding.module);
    const other = imported === undefined ? null : parse(imported);
    if (!other) return DYNAMIC;
    file = other;
    const named = binding.namespace ? members.shift() : binding.member;
    node = named === undefined ? moduleExports(other) : namedExport(other, named);
  } else node = topLevel(tree, name!);
  for (const m of members) node = node && member(file, node, m, 0);
  node = node && resolveIdentifier(file, node, 0);
  return node ? staticValue(node) : DYNAMIC;
}

const isRequire = (n: BabelNode | undefined): string | undefined => {
  if (n?.type !== 'CallExpression') return undefined;
  const callee = n.callee as BabelNode;
  const arg = (n.arguments as BabelNode[])[0];
  return callee.type === 'Identifier' && callee.name === 'require' && arg?.type === 'StringLiteral'
    ? (arg.value as string)
    : undefined;
};

/** How the library binds `name` to another module: its whole exports, or one named export. */
function importBinding(
  tree: BabelFile,
  name: string,
): { module: string; member?: string; namespace?: true } | undefined {
  for (const st of tree.program.body) {
    if (st.type === 'ImportDeclaration') {
      const module = (st.source as BabelNode).value as string;
      for (const s of st.specifiers as BabelNode[]) {
        if ((s.local as BabelNode).name !== name) continue;
        if (s.type === 'ImportSpecifier') {
          const imported = s.imported as BabelNode;
          const member = (imported.name ?? imported.value) as string;
          return member === 'default' ? { module } : { module, member };
        }
        // `import * as Name`: `Name.A` is the named export A.
        return s.type === 'ImportNamespaceSpecifier' ? { module, namespace: true } : { module };
      }
    }
    if (st.type !== 'VariableDeclaration') continue;
    for (const d of st.declarations as BabelNode[]) {
      const module = isRequire(d.init as BabelNode);
      if (module === undefined) continue;
      const id = d.id as BabelNode;
      if (id.type === 'Identifier' && id.name === name) return { module };
      if (id.type !== 'ObjectPattern') continue;
      for (const p of id.properties as BabelNode[]) {
        const value = p.value as BabelNode | undefined;
        const key = p.key as BabelNode | undefined;
        if (value?.type === 'Identifier' && value.name === name && key?.type === 'Identifier') {
          return { module, member: key.name as string };
        }
      }
    }
  }
  return undefined;
}

/** `module.exports.x = …` / `exports.x = …`: the assignment's target name, or undefined. */
function assignedExport(st: BabelNode): { name: string | undefined; value: BabelNode } | undefined {
  if (st.type !== 'ExpressionStatement') return undefined;
  const e = st.expression as BabelNode;
  if (e.type !== 'AssignmentExpression' || e.operator !== '=') return undefined;
  const left = e.left as BabelNode;
  if (left.type !== 'MemberExpression' || left.computed) return undefined;
  const obj = left.object as BabelNode;
  const prop = (left.property as BabelNode).name as string;
  if (obj.type === 'Identifier' && obj.name === 'module' && prop === 'exports') {
    return { name: undefined, value: e.right as BabelNode };
  }
  const isExports =
    (obj.type === 'Identifier' && obj.name === 'exports') ||
    (obj.type === 'MemberExpression' &&
      (obj.object as BabelNode).name === 'module' &&
      (obj.property as BabelNode).name === 'exports');
  return isExports ? { name: prop, value: e.right as BabelNode } : undefined;
}

function moduleExports(tree: BabelFile): BabelNode | undefined {
  let found: BabelNode | undefined;
  for (const st of tree.program.body) {
    if (st.type === 'ExportDefaultDeclaration') found = st.declaration as BabelNode;
    const assigned = assignedExport(st);
    if (assigned && assigned.name === undefined) found = assigned.value;
  }
  return found;
}

function namedExport(tree: BabelFile, name: string): BabelNode | undefined {
  for (const st of tree.program.body) {
    if (st.type === 'ExportNamedDeclaration' && st.declaration) {
      const found = declared(st.declaration as BabelNode, name);
      if (found) return found;
    }
    const assigned = assignedExport(st);
    if (assigned?.name === name) return assigned.value;
  }
  const whole = moduleExports(tree);
  return whole && member(tree, whole, name, 0);
}

function declared(st: BabelNode, name: string): BabelNode | undefined {
  if (st.type === 'VariableDeclaration' && st.kind === 'const') {
    for (const d of st.declarations as BabelNode[]) {
      if ((d.id as BabelNode).type === 'Identifier' && (d.id as BabelNode).name === name) return d.init as BabelNode;
    }
  }
  if (st.type === 'ClassDeclaration' && (st.id as BabelNode | null)?.name === name) return st;
  return undefined;
}

function topLevel(tree: BabelFile, name: string): BabelNode | undefined {
  for (const st of tree.program.body) {
    const inner = st.type === 'ExportNamedDeclaration' && st.declaration ? (st.declaration as BabelNode) : st;
    const found = declared(inner, name);
    if (found) return found;
  }
  return undefined;
}

/** The node of `node.name`: an object literal's property, a class's static property, through top-level names. */
function member(tree: BabelFile, node: BabelNode, name: string, hops: number): BabelNode | undefined {
  if (hops > MAX_HOPS) return undefined;
  if (node.type === 'Identifier') {
    const target = topLevel(tree, node.name as string);
    return target && member(tree, target, name, hops + 1);
  }
  if (node.type === 'ObjectExpression') {
    for (const p of node.properties as BabelNode[]) {
      if (p.type !== 'ObjectProperty' || p.computed) continue;
      const key = p.key as BabelNode;
      if ((key.name ?? key.value) === name) return resolveIdentifier(tree, p.value as BabelNode, hops);
    }
    return undefined;
  }
  if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
    for (const m of (node.body as BabelNode).body as BabelNode[]) {
      if (m.type !== 'ClassProperty' || !m.static || m.computed) continue;
      const key = m.key as BabelNode;
      if ((key.name ?? key.value) === name && m.value) return resolveIdentifier(tree, m.value as BabelNode, hops);
    }
  }
  return undefined;
}

function resolveIdentifier(tree: BabelFile, node: BabelNode, hops: number): BabelNode | undefined {
  if (node.type !== 'Identifier' || hops > MAX_HOPS) return node;
  const target = topLevel(tree, node.name as string);
  return target && resolveIdentifier(tree, target, hops + 1);
}
