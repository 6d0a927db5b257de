import { useQuery } from '@tanstack/react-query';
import { useEffect, useReducer, useRef, useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { runScript, scriptsQuery, type ScriptRecord } from '../../api/scripts';
import { FaultMessage } from '../../components/FaultMessage';
import type { Route } from '../../routing/route';
import type { ScriptsRoute } from './scripts-route';
import '../../styles/keys.css';
import '../../styles/scripts.css';
import { emptyHistory, historyReducer, runningRun } from './history';
import { checkArguments, faultLine, parseLogs, parseStats, runValueOf, withPrincipal } from './run-output';
import { RunInputs } from './RunInputs';
import { RunOutput } from './RunOutput';
import { emptySaveFields, fieldsOf, type SaveFields } from './save-draft';
import { SavePanel } from './SavePanel';
import { ScriptEditor, type ScriptEditorHandle } from './ScriptEditor';

interface ScriptsScreenProps {
  orgClient: OrgClient;
  route: ScriptsRoute;
  navigate: (route: Route) => void;
}

const STARTER = `// Runs in the service's sandbox as you. Ctrl/⌘ + Enter runs it.
const name = script.arguments.name || 'world';
console.log('hello', name);
return { hello: name, org: script.org.code };
`;

/**
 * Write, run and save scripts (issue 16): the ad-hoc runner with JSON arguments and an optional
 * principal, the run's result, console, fault trace and stats together, a session history, and
 * the script library with route scripts and their "try it".
 */
export function ScriptsScreen({ orgClient, route, navigate }: ScriptsScreenProps) {
  const library = useQuery(scriptsQuery(orgClient));
  const editor = useRef<ScriptEditorHandle>(null);
  const [text, setText] = useState(STARTER);
  const [argsText, setArgsText] = useState('{\n  "name": "console"\n}');
  const [principal, setPrincipal] = useState('');
  const [fields, setFields] = useState<SaveFields>(emptySaveFields);
  const [history, dispatch] = useReducer(historyReducer, emptyHistory);
  const [shownId, setShownId] = useState<number | null>(null);
  const abort = useRef<{ id: number; controller: AbortController } | null>(null);
  const loadedId = useRef<string | undefined>(undefined);

  const args = checkArguments(argsText);
  const running = runningRun(history);
  const shown = history.runs.find((run) => run.id === shownId) ?? history.runs[0];
  const open: ScriptRecord | undefined = library.data?.find((s) => s._id === route.id);
  const errorLine = shown?.state === 'failed' && shown.script === text ? faultLine(shown.fault?.trace) : null;

  // Opening a library script (by click or by URL) loads it once into the editor and the save form.
  useEffect(() => {
    if (open && loadedId.current !== open._id) {
      loadedId.current = open._id;
      editor.current?.setText(open.script);
      setText(open.script);
      setFields(fieldsOf(open));
    }
  }, [open]);

  const run = async () => {
    if (abort.current !== null || !args.ok) return;
    const id = history.nextId;
    const controller = new AbortController();
    abort.current = { id, controller };
    dispatch({ type: 'start', startedAt: Date.now(), script: text, argumentsText: argsText, principal });
    setShownId(id);
    try {
      const answer = await runScript(
        orgClient,
        { script: withPrincipal(text, principal), arguments: args.value },
        controller.signal,
      );
      const stats = parseStats(answer.statsHeader);
      if (answer.ok) {
        dispatch({ type: 'finish', id, value: runValueOf(answer.value), logs: parseLogs(answer.logs), stats });
      } else {
        dispatch({ type: 'fail', id, fault: answer.fault, logs: parseLogs(answer.fault.logs), stats });
      }
    } catch (error) {
      if (controller.signal.aborted) dispatch({ type: 'cancel', id });
      else dispatch({ type: 'fail', id, fault: faultOf(error), logs: [], stats: null });
    } finally {
      if (abort.current?.id === id) abort.current = null;
    }
  };

  const cancel = () => {
    if (!abort.current) return;
    const { id, controller } = abort.current;
    abort.current = null;
    controller.abort();
    dispatch({ type: 'cancel', id });
  };

  const newScript = () => {
    loadedId.current = undefined;
    editor.current?.setText(STARTER);
    setText(STARTER);
    setFields(emptySaveFields);
    const next: ScriptsRoute = { ...route };
    delete next.id;
    navigate(next);
  };

  return (
    <section
      className="screen"
      aria-labelledby="scripts-title"
      onKeyDown={(event) => {
        // Ctrl/Cmd+Enter runs from anywhere on the screen (the editor handles its own).
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.defaultPrevented) {
          event.preventDefault();
          void run();
        }
      }}
    >
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="scripts-title">
            Scripts
          </h1>
          <p className="screen__subtitle">
            <code>POST /{orgClient.org}/v2/sys/script_runner</code> · runs and their output stay in this window only
          </p>
        </div>
      </div>
      <div className="scripts">
        <aside className="scripts__side" aria-label="Script library and runs">
          <div className="scripts__side-head">
            <h2 className="pane-title">Library</h2>
            <button
              type="button"
              className="button button--secondary button--small"
              data-testid="script-new"
              onClick={newScript}
            >
              New
            </button>
          </div>
          {library.isPending && <p className="keys-note">Loading scripts…</p>}
          {library.isError && (
            <FaultMessage fault={faultOf(library.error)} compact onRetry={() => void library.refetch()} />
          )}
          {library.data?.length === 0 && (
            <p className="keys-note" data-testid="library-empty">
              No saved scripts yet. Save the one in the editor to start the library.
            </p>
          )}
          {library.data && library.data.length > 0 && (
            <ul className="scripts__list" data-testid="library">
              {library.data.map((s) => (
                <li key={s._id}>
                  <button
                    type="button"
                    className={s._id === route.id ? 'scripts__item scripts__item--on' : 'scripts__item'}
                    aria-current={s._id === route.id ? 'true' : undefined}
                    data-testid="library-item"
                    data-name={s.name}
                    onClick={() => {
                      loadedId.current = undefined;
                      navigate({ ...route, id: s._id });
                    }}
                  >
                    <span className="scripts__item-label">{s.label ?? s.name}</span>
                    <span className={`script-type script-type--${s.type}`}>
                      {s.type}
                      {s.type === 'route' && s.configuration?.path ? ` /${s.configuration.path}` : ''}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <h2 className="pane-title scripts__runs-title">Runs</h2>
          {history.runs.length === 0 && <p className="keys-note">No runs in this session.</p>}
          {history.runs.length > 0 && (
            <ol className="scripts__list" data-testid="run-history">
              {history.runs.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    className={r.id === shown?.id ? 'scripts__item scripts__item--on' : 'scripts__item'}
                    data-testid="history-item"
                    data-state={r.state}
                    title="Open this run: its script, arguments and output"
                    onClick={() => {
                      setShownId(r.id);
                      editor.current?.setText(r.script);
                      setText(r.script);
                      setArgsText(r.argumentsText);
                      setPrincipal(r.principal);
                    }}
                  >
                    <span className="scripts__item-label">
                      #{r.id} · {new Date(r.startedAt).toLocaleTimeString()}
                    </span>
                    <span className={`run-badge run-badge--${r.state}`}>{r.state}</span>
                  </button>
                </li>
              ))}
            </ol>
          )}
        </aside>
        <div className="scripts__main">
          <div className="scripts__toolbar">
            {running ? (
              <button type="button" className="button button--secondary" data-testid="run-cancel" onClick={cancel}>
                Cancel run
              </button>
            ) : (
              <button
                type="button"
                className="button button--primary"
                data-testid="run-submit"
                disabled={!args.ok}
                onClick={() => void run()}
              >
                Run
              </button>
            )}
            <span className="keys-note">
              <kbd>Ctrl</kbd>/<kbd>⌘</kbd> + <kbd>Enter</kbd>
            </span>
          </div>
          <ScriptEditor
            ref={editor}
            initialText={text}
            errorLine={errorLine}
            onChange={setText}
            onRun={() => void run()}
          />
          <div className="scripts__io">
            <div className="scripts__inputs">
              <RunInputs
                argsText={argsText}
                args={args}
                onArgsText={setArgsText}
                principal={principal}
                onPrincipal={setPrincipal}
              />
            </div>
            <RunOutput run={shown} onGoToLine={(line) => editor.current?.goToLine(line)} />
          </div>
          <SavePanel
            orgClient={orgClient}
            script={text}
            fields={fields}
            onFields={setFields}
            saved={open}
            onSaved={(record) => {
              loadedId.current = record._id;
              navigate({ ...route, id: record._id });
            }}
          />
        </div>
      </div>
    </section>
  );
}
