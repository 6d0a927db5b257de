import { describe, expect, it } from 'vitest';
import { MAX_RUNS, emptyHistory, historyReducer, runningRun, type HistoryAction, type HistoryState } from './history';

const start = (script = 'return 1'): HistoryAction => ({
  type: 'start',
  startedAt: 1,
  script,
  argumentsText: '{}',
  principal: '',
});
const apply = (actions: HistoryAction[], state: HistoryState = emptyHistory) => actions.reduce(historyReducer, state);

describe('historyReducer', () => {
  it('adds runs newest first with increasing ids, running until they settle', () => {
    const state = apply([start('a'), start('b')]);
    expect(state.runs.map((r) => [r.id, r.script, r.state])).toEqual([
      [2, 'b', 'running'],
      [1, 'a', 'running'],
    ]);
    expect(runningRun(state)?.id).toBe(2);
  });

  it('records the value, logs and stats of a finished run', () => {
    const state = apply([
      start(),
      { type: 'finish', id: 1, value: 42, logs: [{ level: 'log', message: 'hi' }], stats: { elapsedMs: 3 } },
    ]);
    expect(state.runs[0]).toMatchObject({
      state: 'done',
      value: 42,
      logs: [{ message: 'hi' }],
      stats: { elapsedMs: 3 },
    });
    expect(runningRun(state)).toBeUndefined();
  });

  it('records a fault', () => {
    const fault = {
      object: 'fault' as const,
      name: 'error',
      code: 'kError',
      errCode: 'service.error.script',
      status: 500,
      message: 'x',
      trace: 'Error\n\tmain Script:2',
    };
    const state = apply([start(), { type: 'fail', id: 1, fault, logs: [], stats: null }]);
    expect(state.runs[0]).toMatchObject({ state: 'failed', fault: { trace: 'Error\n\tmain Script:2' } });
  });

  it('keeps a cancelled run cancelled when its answer arrives late', () => {
    const state = apply([
      start(),
      { type: 'cancel', id: 1 },
      { type: 'finish', id: 1, value: 1, logs: [], stats: null },
    ]);
    expect(state.runs[0]?.state).toBe('cancelled');
    expect(state.runs[0]).not.toHaveProperty('value');
  });

  it('ignores actions for unknown runs (same state object)', () => {
    const state = apply([start()]);
    expect(historyReducer(state, { type: 'cancel', id: 99 })).toBe(state);
  });

  it(`keeps at most ${MAX_RUNS} runs`, () => {
    const state = apply(Array.from({ length: MAX_RUNS + 5 }, () => start()));
    expect(state.runs).toHaveLength(MAX_RUNS);
    expect(state.runs[0]?.id).toBe(MAX_RUNS + 5);
    expect(state.nextId).toBe(MAX_RUNS + 6);
  });
});
