/**
 * Completion for the script editor from the one description of the script API
 * (src-shared/scripting/api-description.ts): module names inside `require('…')` and
 * `import … from '…'` (built-in modules and the org's library exports), the globals, and the
 * members of `script`, `org`, `consts`, `Fault` and `sys`. Pure: the editor wires it to CodeMirror.
 */
import { GLOBAL_TABLE, MODULE_TABLE, type ModuleStatus } from '../../../src-shared/scripting/api-description';

export interface ScriptCompletion {
  label: string;
  type: 'module' | 'variable' | 'property';
  detail: string;
  info?: string;
}

export interface CompletionAnswer {
  from: number;
  options: ScriptCompletion[];
}

const STATUS_WORD: Record<ModuleStatus, string> = {
  implemented: 'module',
  partial: 'module (in part)',
  bundled: 'bundled library',
  refused: 'refused here',
};

/** Built-in modules and library exports, as `require`/`import` completions. */
export function moduleOptions(libraryExports: readonly string[]): ScriptCompletion[] {
  const builtIn = MODULE_TABLE.map((m): ScriptCompletion => ({
    label: m.name,
    type: 'module',
    detail: STATUS_WORD[m.status],
    info: m.reason ? `${m.summary} ${m.reason}` : m.summary,
  }));
  const libraries = [...new Set(libraryExports)]
    .filter((name) => !MODULE_TABLE.some((m) => m.name === name))
    .sort()
    .map((name): ScriptCompletion => ({ label: name, type: 'module', detail: 'library script' }));
  return [...libraries, ...builtIn];
}

const MODULE_STRING = /(?:\brequire\(\s*|\bfrom\s+|\bimport\s+)(['"])([\w.@/-]*)$/;
const MEMBER = /\b([A-Za-z_$][\w$]*)\.([\w$]*)$/;
const WORD = /(?:^|[^\w$.])([A-Za-z_$][\w$]*)$/;

/**
 * What to offer with `before` (the text of the line before the cursor) ending at `pos`; null when
 * nothing applies (not in a module string, not after a known global, not on a word).
 */
export function completeScript(
  before: string,
  pos: number,
  libraryExports: readonly string[],
): CompletionAnswer | null {
  const moduleString = MODULE_STRING.exec(before);
  if (moduleString) {
    return { from: pos - (moduleString[2] ?? '').length, options: moduleOptions(libraryExports) };
  }
  const member = MEMBER.exec(before);
  if (member) {
    const global = GLOBAL_TABLE.find((g) => g.name === member[1]);
    if (!global?.members) return null;
    return {
      from: pos - (member[2] ?? '').length,
      options: global.members.map((name) => ({ label: name, type: 'property', detail: global.name })),
    };
  }
  const word = WORD.exec(before);
  if (!word) return null;
  return {
    from: pos - (word[1] ?? '').length,
    options: GLOBAL_TABLE.map((g) => ({ label: g.name, type: 'variable', detail: 'global', info: g.summary })),
  };
}

/**
 * What hovering `line` at `column` explains: a global of scripts (its summary) or a module named in
 * a string (what it offers here, and why not when it is refused). Null elsewhere.
 */
export function hoverInfo(line: string, column: number): { from: number; to: number; text: string } | null {
  const isWord = (c: string | undefined) => c !== undefined && /[\w$.@/-]/.test(c);
  let from = column;
  let to = column;
  while (from > 0 && isWord(line[from - 1])) from--;
  while (to < line.length && isWord(line[to])) to++;
  if (from === to) return null;
  const word = line.slice(from, to);
  const quoted = /['"]/.test(line[from - 1] ?? '') && /['"]/.test(line[to] ?? '');
  if (quoted) {
    const m = MODULE_TABLE.find((x) => x.name === word);
    if (m)
      return { from, to, text: `${m.name} (${STATUS_WORD[m.status]}): ${m.summary}${m.reason ? ` ${m.reason}` : ''}` };
    return null;
  }
  const name = word.split('.')[0] ?? '';
  const g = GLOBAL_TABLE.find((x) => x.name === name);
  if (!g) return null;
  return { from, to: from + name.length, text: `${g.name}: ${g.summary}` };
}
