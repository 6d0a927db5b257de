import { describe, expect, it } from 'vitest';
import { completeScript, moduleOptions } from './script-completion';

describe('script completion', () => {
  it('offers built-in modules and library exports inside require and import strings', () => {
    const req = completeScript("const x = require('util.", 24, ['c_lib']);
    expect(req?.from).toBe(19);
    expect(req?.options.map((o) => o.label)).toEqual(expect.arrayContaining(['util.values', 'c_lib', 'decorators']));
    const imp = completeScript("import { route } from 'dec", 26, []);
    expect(imp?.from).toBe(23);
    expect(imp?.options.find((o) => o.label === 'http')?.detail).toBe('module (in part)');
    expect(imp?.options.find((o) => o.label === 'db')?.detail).toBe('refused here');
    expect(imp?.options.find((o) => o.label === 'api')?.detail).toBe('module (in part)');
    expect(imp?.options.find((o) => o.label === 'wrapped')?.detail).not.toBe('refused here');
  });

  it('lists library exports first, once, and not when a built-in has the name', () => {
    expect(
      moduleOptions(['c_b', 'c_a', 'c_b', 'moment'])
        .slice(0, 3)
        .map((o) => o.label),
    ).toEqual(['c_a', 'c_b', 'request']);
  });

  it('offers the members of a global after its dot, and the globals on a word', () => {
    expect(completeScript('script.pr', 9, [])?.options.map((o) => o.label)).toContain('principal');
    expect(completeScript('return Fa', 9, [])?.options.map((o) => o.label)).toContain('Fault');
    expect(completeScript('foo.ba', 6, [])).toBeNull();
    expect(completeScript('x = 1 + ', 8, [])).toBeNull();
  });
});

describe('hover', () => {
  it('explains globals and module names, refused ones with why', async () => {
    const { hoverInfo } = await import('./script-completion');
    expect(hoverInfo('return script.principal', 9)?.text).toMatch(/^script: /);
    expect(hoverInfo("const w = require('db')", 19)?.text).toMatch(/^db \(refused here\).*use org.objects/);
    expect(hoverInfo("require('c_unknown')", 10)).toBeNull();
    expect(hoverInfo('const a = 1', 7)).toBeNull();
  });
});
