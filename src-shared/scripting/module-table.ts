/**
 * The module and globals tables of docs/scripting.md, rendered from the API description, so the
 * document cannot drift from what the sandbox offers (a test compares them).
 */
import { GLOBAL_TABLE, MODULE_TABLE, type ModuleStatus } from './api-description.js';

const STATUS: Record<ModuleStatus, string> = {
  implemented: 'offered',
  partial: 'offered, in part',
  bundled: 'bundled (lazy)',
  refused: 'refused: `notImplemented.module`',
};

const cell = (text: string) => text.replace(/\|/g, '\\|');

export const MODULE_TABLE_START =
  '<!-- module-table:start (generated from src-shared/scripting/api-description.ts) -->';
export const MODULE_TABLE_END = '<!-- module-table:end -->';

export function moduleTableMarkdown(): string {
  const modules = [
    '| module | status | what it offers | why / what is missing |',
    '|---|---|---|---|',
    ...MODULE_TABLE.map(
      (m) => `| \`${m.name}\` | ${STATUS[m.status]} | ${cell(m.summary)} | ${cell(m.reason ?? '')} |`,
    ),
  ];
  const globals = [
    '| global | what it is |',
    '|---|---|',
    ...GLOBAL_TABLE.map((g) => `| \`${g.name}\` | ${cell(g.summary)} |`),
  ];
  return [MODULE_TABLE_START, '', ...modules, '', ...globals, '', MODULE_TABLE_END].join('\n');
}
