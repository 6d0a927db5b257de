/**
 * docs/scripting.md's module table is generated from the API description: this fails when they
 * differ. UPDATE_SCRIPTING_DOC=1 npx vitest run src-main/service/scripting/scripting-doc.test.ts
 * rewrites the section.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MODULE_TABLE_END,
  MODULE_TABLE_START,
  moduleTableMarkdown,
} from '../../../src-shared/scripting/module-table.js';

const DOC = join(import.meta.dirname, '..', '..', '..', 'docs', 'scripting.md');

describe('docs/scripting.md', () => {
  it('has the module table the API description generates', () => {
    const text = readFileSync(DOC, 'utf8');
    const start = text.indexOf(MODULE_TABLE_START);
    const end = text.indexOf(MODULE_TABLE_END);
    expect(start, 'the generated section markers are missing').toBeGreaterThan(-1);
    const current = text.slice(start, end + MODULE_TABLE_END.length);
    if (process.env.UPDATE_SCRIPTING_DOC && current !== moduleTableMarkdown()) {
      writeFileSync(DOC, text.slice(0, start) + moduleTableMarkdown() + text.slice(end + MODULE_TABLE_END.length));
      return;
    }
    expect(current).toBe(moduleTableMarkdown());
  });
});
