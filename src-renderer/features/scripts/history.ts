/**
 * The session's runs, newest first, held in memory only (a script's output may hold secrets such
 * as minted tokens). A reducer so the order of start/finish/cancel is testable without React.
 */
import type { FaultBody } from '../../../src-shared/faults';
import type { ConsoleLine, SandboxStats } from './run-output';

export type RunState = 'running' | 'done' | 'failed' | 'cancelled';

export interface RunEntry {
  id: number;
  startedAt: number;
  script: string;
  argumentsText: string;
  principal: string;
  state: RunState;
  value?: unknown;
  fault?: FaultBody & { trace?: unknown };
  logs: ConsoleLine[];
  stats: SandboxStats | null;
}

export interface HistoryState {
  runs: RunEntry[];
  nextId: number;
}

export const MAX_RUNS = 50;

export const emptyHistory: HistoryState = { runs: [], nextId: 1 };

export type HistoryAction =
  | { type: 'start'; startedAt: number; script: string; argumentsText: string; principal: string }
  | { type: 'finish'; id: number; value: unknown; logs: ConsoleLine[]; stats: SandboxStats | null }
  | {
      type: 'fail';
      id: number;
      fault: FaultBody & { trace?: unknown };
      logs: ConsoleLine[];
      stats: SandboxStats | null;
    }
  | { type: 'cancel'; id: number };

export function historyReducer(state: HistoryState, action: HistoryAction): HistoryState {
  switch (action.type) {
    case 'start': {
      const entry: RunEntry = {
        id: state.nextId,
        startedAt: action.startedAt,
        script: action.script,
        argumentsText: action.argumentsText,
        principal: action.principal,
        state: 'running',
        logs: [],
        stats: null,
      };
      return { runs: [entry, ...state.runs].slice(0, MAX_RUNS), nextId: state.nextId + 1 };
    }
    case 'finish':
      return settle(state, action.id, (run) => ({
        ...run,
        state: 'done',
        value: action.value,
        logs: action.logs,
        stats: action.stats,
      }));
    case 'fail':
      return settle(state, action.id, (run) => ({
        ...run,
        state: 'failed',
        fault: action.fault,
        logs: action.logs,
        stats: action.stats,
      }));
    case 'cancel':
      return settle(state, action.id, (run) => ({ ...run, state: 'cancelled' }));
  }
}

/** Only a running entry settles: a late answer after a cancel does not overwrite "cancelled". */
function settle(state: HistoryState, id: number, change: (run: RunEntry) => RunEntry): HistoryState {
  let changed = false;
  const runs = state.runs.map((run) => {
    if (run.id !== id || run.state !== 'running') return run;
    changed = true;
    return change(run);
  });
  return changed ? { ...state, runs } : state;
}

/** The run in progress, if any. */
export function runningRun(state: HistoryState): RunEntry | undefined {
  return state.runs.find((run) => run.state === 'running');
}
