import { describe, expect, it } from 'vitest';
import { scriptDiagnostics } from './script-lint';

describe('script lint', () => {
  it('accepts the original idioms: imports, require, globals, decorators, classes', () => {
    const text = [
      "import { route } from 'decorators'",
      "const { equalIds } = require('util.id')",
      'class Api {',
      "  @route('GET x')",
      '  static get({ req }) { return equalIds(script.principal._id, req.params.id) && consts.roles && Fault && org }',
      '}',
      'module.exports = Api',
      'return JSON.stringify(Math.max(1, 2))',
    ].join('\n');
    expect(scriptDiagnostics(text)).toEqual([]);
  });

  it('marks syntax errors and unknown globals', () => {
    const diagnostics = scriptDiagnostics('const a = 1\nreturn a + db.things\nlet = ;');
    expect(diagnostics.map((d) => [d.severity, d.message.split(' ')[0]])).toEqual([
      ['warning', 'db'],
      ['error', 'Syntax'],
    ]);
    expect(diagnostics[0]?.from).toBe(23);
  });
});
