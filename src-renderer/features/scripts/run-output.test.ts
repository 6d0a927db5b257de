import { describe, expect, it } from 'vitest';
import {
  checkArguments,
  lineCount,
  faultLine,
  parseLogs,
  parseStats,
  parseTrace,
  runValueOf,
  statRows,
  withPrincipal,
} from './run-output';

describe('parseTrace', () => {
  it('reads the head and every Script:<line> frame, innermost first', () => {
    const trace = parseTrace('Error: boom\n\tinner Script:3\n\tmain Script:8');
    expect(trace).toEqual({
      head: 'Error: boom',
      frames: [
        { fn: 'inner', line: 3, text: 'inner Script:3' },
        { fn: 'main', line: 8, text: 'main Script:8' },
      ],
    });
  });

  it('accepts V8-like "at fn (Script:4:7)" frames too', () => {
    expect(parseTrace('TypeError: x\n    at go (Script:4:7)')?.frames[0]).toMatchObject({ fn: 'go', line: 4 });
  });

  it('keeps a trace without frames as a head only, and reads non-strings as absent', () => {
    expect(parseTrace('Error')).toEqual({ head: 'Error', frames: [] });
    expect(parseTrace(undefined)).toBeNull();
    expect(parseTrace(42)).toBeNull();
    expect(parseTrace('   ')).toBeNull();
  });

  it('ignores line 0 and lines that only look like frames', () => {
    expect(parseTrace('Error: a\n\tmain Script:0\n\tmain Script:x')?.frames).toEqual([]);
  });
});

describe('faultLine', () => {
  it('is the innermost frame line', () => {
    expect(faultLine('Error: msg\n\tmain Script:8')).toBe(8);
    expect(faultLine('Error: msg\n\tf Script:2\n\tmain Script:9')).toBe(2);
    expect(faultLine('Error')).toBeNull();
  });
});

describe('parseStats', () => {
  it('reads the known numeric stats and drops the rest', () => {
    const header = JSON.stringify({
      elapsedMs: 12.5,
      cpuMs: 3,
      operations: 4,
      memoryPeakBytes: 2048,
      bytesIn: 10,
      bytesOut: 20,
      callouts: 0,
      extra: 1,
      bad: 'x',
    });
    expect(parseStats(header)).toEqual({
      elapsedMs: 12.5,
      cpuMs: 3,
      operations: 4,
      memoryPeakBytes: 2048,
      bytesIn: 10,
      bytesOut: 20,
      callouts: 0,
    });
  });

  it('is null for a missing, broken or empty header, and drops negative or non-finite numbers', () => {
    expect(parseStats(null)).toBeNull();
    expect(parseStats('not json')).toBeNull();
    expect(parseStats('[1,2]')).toBeNull();
    expect(parseStats('{"elapsedMs":-1,"operations":"3"}')).toBeNull();
    expect(parseStats('{"elapsedMs":5,"cpuMs":-2}')).toEqual({ elapsedMs: 5 });
  });

  it('formats rows in a fixed order with units', () => {
    const rows = statRows({ bytesOut: 3000, elapsedMs: 4.25, memoryPeakBytes: 3 * 1024 * 1024 });
    expect(rows.map((r) => [r.key, r.value])).toEqual([
      ['elapsedMs', '4.3 ms'],
      ['memoryPeakBytes', '3.0 MiB'],
      ['bytesOut', '2.9 KiB'],
    ]);
  });
});

describe('parseLogs', () => {
  it('reads {level, message} entries and plain strings', () => {
    expect(parseLogs([{ level: 'warn', message: 'careful' }, 'plain', { message: { a: 1 } }])).toEqual([
      { level: 'warn', message: 'careful' },
      { level: 'log', message: 'plain' },
      { level: 'log', message: '{"a":1}' },
    ]);
    expect(parseLogs(undefined)).toEqual([]);
    expect(parseLogs('x')).toEqual([]);
  });
});

describe('checkArguments', () => {
  it('treats empty as {} and refuses text that is not JSON', () => {
    expect(checkArguments('  ')).toEqual({ ok: true, value: {} });
    expect(checkArguments('{"a": [1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(checkArguments('{a: 1}').ok).toBe(false);
  });
});

describe('withPrincipal', () => {
  it('wraps the script in script.as on its first line so trace lines still match', () => {
    const wrapped = withPrincipal('const a = 1;\nthrow new Error("x");', ' ann@demo.test ');
    expect(wrapped.startsWith('return script.as("ann@demo.test", {}, function () { const a = 1;\n')).toBe(true);
    expect(wrapped.split('\n')[1]).toBe('throw new Error("x");');
    expect(withPrincipal('return 1', '')).toBe('return 1');
  });

  it('quotes the principal as a JSON string (no injection through the field)', () => {
    expect(withPrincipal('1', '"); evil(); ("')).toContain('"\\"); evil(); (\\""');
  });
});

describe('runValueOf', () => {
  it('unwraps result and list envelopes and keeps plain objects as they are', () => {
    expect(runValueOf({ object: 'result', data: 'x' })).toBe('x');
    expect(runValueOf({ object: 'result', data: null })).toBeNull();
    expect(runValueOf({ object: 'list', data: [1], hasMore: false })).toEqual([1]);
    expect(runValueOf({ hello: 'world' })).toEqual({ hello: 'world' });
    expect(runValueOf({ object: 'account', _id: 'a' })).toEqual({ object: 'account', _id: 'a' });
  });
});

describe('the trace of a script run as another principal', () => {
  it('keeps the script on its own lines, and the trace reader drops the frame of the wrapper', () => {
    const script = 'const a = 1;\nthrow new Error(a);';
    const wrapped = withPrincipal(script, 'ann@demo.test');
    expect(wrapped.split('\n')[1]).toBe('throw new Error(a);');
    expect(lineCount(wrapped)).toBe(lineCount(script) + 1);
    const trace = 'Error: 1\n\tmain Script:2\n\tmain Script:3';
    expect(parseTrace(trace, lineCount(script))?.frames.map((f) => f.line)).toEqual([2]);
    expect(faultLine('Error: 1\n\tmain Script:3', lineCount(script))).toBeNull();
  });
});
