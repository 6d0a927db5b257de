import { describe, expect, it } from 'vitest';
import { moduleLines, runnerScript, wrapKeepingImports } from './module-lines';

describe('moduleLines', () => {
  it('moves top-level imports to the first line and keeps every other line where it was', () => {
    const script = "import a from 'a'\nimport {\n  b\n} from 'b'\nconst c = a + b\nreturn c";
    const { imports, body } = moduleLines(script);
    expect(imports).toBe("import a from 'a'; import { b } from 'b';");
    expect(body.split('\n')).toHaveLength(script.split('\n').length);
    expect(body.split('\n')[4]).toBe('const c = a + b');
  });

  it('wraps the body only; scripts without imports as before; with export, not at all', () => {
    const wrap = (body: string) => `return (function () { ${body}\n})()`;
    expect(wrapKeepingImports("import a from 'a'\nreturn a", wrap)).toBe(
      "import a from 'a'; return (function () { \nreturn a\n})()",
    );
    expect(wrapKeepingImports('return 1', wrap)).toBe(wrap('return 1'));
    expect(wrapKeepingImports("// import the data\nreturn 'export'", wrap)).toBe(
      wrap("// import the data\nreturn 'export'"),
    );
    expect(wrapKeepingImports('export const x = 1', wrap)).toBe('export const x = 1');
  });
});

describe('runnerScript', () => {
  it('sends the editor text unwrapped (console output comes from the answer or its log entry)', () => {
    const text = "import a from 'a'\nconsole.log(a)\nreturn { a }";
    expect(runnerScript(text, '')).toBe(text);
    expect(runnerScript(text, '  ')).toBe(text);
  });

  it('runs as another principal through script.as, imports first, lines kept', () => {
    const sent = runnerScript("import a from 'a'\nreturn a", 'ann@demo.test');
    expect(sent.startsWith('import a from \'a\'; return script.as("ann@demo.test"')).toBe(true);
    expect(sent.split('\n')[1]).toBe('return a');
  });
});
