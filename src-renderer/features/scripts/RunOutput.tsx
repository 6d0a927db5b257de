import { useEffect, useRef } from 'react';
import { FaultMessage } from '../../components/FaultMessage';
import type { RunEntry } from './history';
import { lineCount, parseTrace, statRows } from './run-output';

interface RunOutputProps {
  run: RunEntry | undefined;
  onGoToLine: (line: number) => void;
}

/** One run: its value or fault with the trace, the captured console output and the stats, together. */
export function RunOutput({ run, onGoToLine }: RunOutputProps) {
  const box = useRef<HTMLDivElement>(null);
  // In a small window the output sits below the fold: bring a settled run into view.
  useEffect(() => {
    if (run && run.state !== 'running') box.current?.scrollIntoView?.({ block: 'nearest' });
  }, [run]);
  if (!run) {
    return (
      <div className="run-output" data-testid="run-output" data-state="idle">
        <p className="empty-state">Run the script (Ctrl/⌘ + Enter) to see its result here.</p>
      </div>
    );
  }
  const trace = run.fault ? parseTrace(run.fault.trace, lineCount(run.script)) : null;
  return (
    <div ref={box} className="run-output" data-testid="run-output" data-state={run.state} aria-live="polite">
      <div className="run-output__head">
        <span className={`run-badge run-badge--${run.state}`} data-testid="run-state">
          {run.state === 'running'
            ? 'Running…'
            : run.state === 'done'
              ? 'Succeeded'
              : run.state === 'failed'
                ? 'Failed'
                : 'Cancelled'}
        </span>
        <span className="keys-note">Run #{run.id}</span>
      </div>
      {run.state === 'running' && (
        <p className="keys-note">
          <span className="spinner spinner--inline" aria-hidden="true" /> Waiting for the sandbox…
        </p>
      )}
      {run.state === 'cancelled' && (
        <p className="keys-note" data-testid="run-cancelled">
          The run was cancelled: the console stopped waiting for its answer.
        </p>
      )}
      {run.state === 'done' && (
        <section>
          <h3 className="pane-title">Result</h3>
          <pre className="keys-pre run-output__json" data-testid="run-result">
            {JSON.stringify(run.value, null, 2)}
          </pre>
        </section>
      )}
      {run.state === 'failed' && run.fault && (
        <section data-testid="run-fault">
          <FaultMessage fault={run.fault} compact />
          {trace && (
            <div className="run-trace" data-testid="run-trace">
              <p className="run-trace__head">{trace.head}</p>
              <ol className="run-trace__frames">
                {trace.frames.map((frame, index) => (
                  <li key={`${frame.line}-${index}`}>
                    <button
                      type="button"
                      className="button--link run-trace__frame"
                      data-testid="trace-line"
                      data-line={frame.line}
                      onClick={() => onGoToLine(frame.line)}
                    >
                      {frame.fn} — line {frame.line}
                    </button>
                  </li>
                ))}
              </ol>
            </div>
          )}
        </section>
      )}
      {run.logs.length > 0 && (
        <section>
          <h3 className="pane-title">Console</h3>
          <pre className="keys-pre run-output__console" data-testid="run-console">
            {run.logs.map((line, index) => (
              <span key={index} className={`run-log run-log--${line.level}`}>
                {line.level === 'log' ? '' : `[${line.level}] `}
                {line.message}
                {'\n'}
              </span>
            ))}
          </pre>
        </section>
      )}
      {run.stats && (
        <dl className="run-stats" data-testid="run-stats">
          {statRows(run.stats).map((row) => (
            <div key={row.key} className="run-stats__item" data-stat={row.key}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
