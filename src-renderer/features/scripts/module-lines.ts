/**
 * The console wraps what it runs as another principal in a function (run-output.ts
 * `withPrincipal`), but `import` must stay at the top of a script (issue 40). This takes a script's top-level import
 * declarations out of its body and puts them first, on the wrapper's first line; each one leaves
 * blank lines of its own height behind, so every other statement keeps its line (and traces and
 * the marked fault line stay the editor's). A script with `export` is not wrapped at all.
 */
import { javascriptLanguage } from '@codemirror/lang-javascript';
import { withPrincipal } from './run-output';

export interface ModuleLines {
  /** The import declarations, joined on one line (empty when there are none). */
  imports: string;
  /** The script with each import replaced by as many line breaks as it spanned. */
  body: string;
  /** The script has a top-level `export`: it cannot be wrapped in a function. */
  exports: boolean;
}

export function moduleLines(script: string): ModuleLines {
  if (!/\b(import|export)\b/.test(script)) return { imports: '', body: script, exports: false };
  const tree = javascriptLanguage.parser.parse(script);
  const imports: string[] = [];
  let body = '';
  let at = 0;
  let exports = false;
  for (let node = tree.topNode.firstChild; node; node = node.nextSibling) {
    if (node.name === 'ExportDeclaration') exports = true;
    if (node.name !== 'ImportDeclaration') continue;
    const text = script.slice(node.from, node.to);
    imports.push(text.replace(/\s*\n\s*/g, ' ').replace(/;?\s*$/, ';'));
    body += script.slice(at, node.from) + '\n'.repeat(text.split('\n').length - 1);
    at = node.to;
  }
  body += script.slice(at);
  return { imports: imports.join(' '), body, exports };
}

/** `wrap` applied to the script's body, its imports kept first; a script with `export` as it is. */
export function wrapKeepingImports(script: string, wrap: (body: string) => string): string {
  const lines = moduleLines(script);
  if (lines.exports) return script;
  if (lines.imports === '') return wrap(script);
  return `${lines.imports} ${wrap(lines.body)}`;
}

/**
 * What the Scripts screen sends the runner: the editor's text as it is, or, to run it as another
 * principal, wrapped in `script.as` with its imports kept first. Console output needs no wrapper:
 * it comes on the answer's envelope or, beside a returned object, from the run's log entry named
 * by `Service-Script-Log` (api/scripts.ts `runScript`).
 */
export function runnerScript(text: string, principal: string): string {
  return principal.trim() === '' ? text : wrapKeepingImports(text, (body) => withPrincipal(body, principal));
}
