/**
 * Lint while typing in the script editor (issue 44 item 7, from the one API description): syntax
 * errors as the editor's JavaScript parser sees them, and names used but neither declared in the
 * script nor a global scripts have (the original's globals, ECMAScript's). Pure, so it is tested
 * without an editor; the parser is the one the editor highlights with.
 */
import { javascriptLanguage } from '@codemirror/lang-javascript';
import { GLOBAL_TABLE } from '../../../src-shared/scripting/api-description';

export interface ScriptDiagnostic {
  from: number;
  to: number;
  severity: 'error' | 'warning';
  message: string;
}

const ECMASCRIPT_GLOBALS = new Set(
  (
    'undefined NaN Infinity globalThis Object Function Array String Number Boolean Symbol BigInt Math JSON Date ' +
    'RegExp Error TypeError RangeError SyntaxError ReferenceError EvalError URIError AggregateError Promise Map ' +
    'Set WeakMap WeakSet WeakRef Proxy Reflect Intl ArrayBuffer SharedArrayBuffer DataView Int8Array Uint8Array ' +
    'Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array Float64Array BigInt64Array ' +
    'BigUint64Array parseInt parseFloat isNaN isFinite encodeURI encodeURIComponent decodeURI decodeURIComponent ' +
    'escape unescape eval arguments module exports performance'
  ).split(' '),
);
const SCRIPT_GLOBALS = new Set(GLOBAL_TABLE.map((g) => g.name));
const MAX_DIAGNOSTICS = 50;

export function scriptDiagnostics(text: string): ScriptDiagnostic[] {
  const tree = javascriptLanguage.parser.parse(text);
  const declared = new Set<string>();
  const used: { name: string; from: number; to: number }[] = [];
  const out: ScriptDiagnostic[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) {
        if (out.length < MAX_DIAGNOSTICS) {
          out.push({
            from: node.from,
            to: Math.max(node.to, node.from + 1),
            severity: 'error',
            message: 'Syntax error',
          });
        }
        return;
      }
      if (node.name === 'VariableDefinition') declared.add(text.slice(node.from, node.to));
      if (node.name === 'VariableName')
        used.push({ name: text.slice(node.from, node.to), from: node.from, to: node.to });
    },
  });
  for (const u of used) {
    if (out.length >= MAX_DIAGNOSTICS) break;
    if (declared.has(u.name) || SCRIPT_GLOBALS.has(u.name) || ECMASCRIPT_GLOBALS.has(u.name)) continue;
    out.push({
      from: u.from,
      to: u.to,
      severity: 'warning',
      message: `${u.name} is not declared here and is not a global of scripts (${[...SCRIPT_GLOBALS].join(', ')}).`,
    });
  }
  return out.sort((a, b) => a.from - b.from);
}
