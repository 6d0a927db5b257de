import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer, useRef, useState } from 'react';
import { faultOf } from '../../api/api-error';
import { useServiceOrigin } from '../../api/desktop-connections';
import type { OrgClient } from '../../api/org-client';
import { runScript, scriptKeys, scriptsQuery, type ScriptRecord } from '../../api/scripts';
import type { Route } from '../../routing/route';
import type { ScriptsRoute } from './scripts-route';
import '../../styles/keys.css';
import '../../styles/scripts.css';
import { ConfirmDialog, type Confirmation } from './ConfirmDialog';
import { emptyHistory, historyReducer, runningRun, type RunEntry } from './history';
import { LibraryPane } from './LibraryPane';
import { checkArguments, faultLine, lineCount, parseLogs, parseStats, runValueOf } from './run-output';
import { RunInputs } from './RunInputs';
import { RunOutput } from './RunOutput';
import { SavePanel } from './SavePanel';
import { draftScope } from './script-drafts';
import { ScriptEditor, type ScriptEditorHandle } from './ScriptEditor';
import { useScriptDocument } from './use-script-document';
import { libraryExportsOf, ScriptApiPanel } from './ScriptApiPanel';
import { runnerScript } from './module-lines';
import { TriggerJobPanel } from './TriggerJobPanel';

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
 * the script library with route scripts and their "try it". Unsaved text is kept as a draft per
 * script in this browser (issue 44 item 1) and nothing replaces it without asking.
 */
export function ScriptsScreen({ orgClient, route, navigate }: ScriptsScreenProps) {
  const library = useQuery(scriptsQuery(orgClient));
  const queryClient = useQueryClient();
  const editor = useRef<ScriptEditorHandle>(null);
  const origin = useServiceOrigin();
  const open: ScriptRecord | undefined = library.data?.find((s) => s._id === route.id);
  const doc = useScriptDocument({
    scope: draftScope(origin, orgClient.org),
    id: route.id,
    saved: open,
    starter: STARTER,
    editor,
  });
  const text = doc.text;
  const [argsText, setArgsText] = useState('{\n  "name": "console"\n}');
  const [principal, setPrincipal] = useState('');
  const [history, dispatch] = useReducer(historyReducer, emptyHistory);
  const [shownId, setShownId] = useState<number | null>(null);
  const [ask, setAsk] = useState<Confirmation | null>(null);
  const abort = useRef<{ id: number; controller: AbortController } | null>(null);

  const args = checkArguments(argsText);
  const running = runningRun(history);
  const shown = history.runs.find((run) => run.id === shownId) ?? history.runs[0];
  const runLine =
    shown?.state === 'failed' && shown.script === text ? faultLine(shown.fault?.trace, lineCount(text)) : null;
  // A log entry's fault opens its script at the line (route.line) while its saved text is shown.
  const errorLine = runLine ?? (open && text === open.script ? (route.line ?? null) : null);
  const wantedLine = open && text === open.script ? route.line : undefined;
  useEffect(() => {
    if (wantedLine !== undefined) editor.current?.goToLine(wantedLine);
  }, [wantedLine]);

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
        { script: runnerScript(text, principal), arguments: args.value },
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

  /** Another script: its draft (or saved text) opens; this one's draft stays where it is. */
  const openScript = (id: string | undefined) => {
    const next: ScriptsRoute = { ...route };
    delete next.line;
    if (id === undefined) delete next.id;
    else next.id = id;
    navigate(next);
  };

  const newScript = () => {
    if (route.id !== undefined) openScript(undefined);
    else if (doc.dirty) {
      setAsk({
        title: 'Start a new script?',
        message: 'The new script in the editor was never saved; starting anew throws it away.',
        confirm: 'Discard it and start anew',
        onConfirm: doc.discard,
      });
    }
  };

  const discard = () =>
    setAsk({
      title: 'Discard your changes?',
      message: open
        ? `The editor and the form go back to “${open.label ?? open.name}” as saved.`
        : 'The editor goes back to the starter script and the form is emptied.',
      confirm: 'Discard changes',
      onConfirm: doc.discard,
    });

  const openRun = (r: RunEntry) => {
    const load = () => {
      setShownId(r.id);
      editor.current?.setText(r.script);
      setArgsText(r.argumentsText);
      setPrincipal(r.principal);
    };
    if (doc.dirty && r.script !== text) {
      setAsk({
        title: 'Replace the unsaved text?',
        message: `Run #${r.id}'s script replaces the unsaved changes in the editor.`,
        confirm: 'Replace them',
        onConfirm: load,
      });
    } else load();
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
        <LibraryPane
          library={library}
          openId={route.id}
          drafts={doc.drafts}
          runs={history.runs}
          shownRunId={shown?.id}
          onNew={newScript}
          onOpen={openScript}
          onOpenRun={openRun}
          api={<ScriptApiPanel orgClient={orgClient} library={library.data} />}
        />
        <div className="scripts__main">
          {open && (open.type === 'trigger' || open.type === 'job') && (
            <TriggerJobPanel orgClient={orgClient} script={open} />
          )}
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
            {doc.dirty && (
              <span className="script-dirty" role="status" data-testid="script-dirty">
                <span>
                  Unsaved changes
                  {doc.restoredAt !== null && (
                    <> · draft restored from {new Date(doc.restoredAt).toLocaleTimeString()}</>
                  )}
                </span>
                <button
                  type="button"
                  className="button button--ghost button--small"
                  data-testid="script-discard"
                  onClick={discard}
                >
                  Discard changes
                </button>
              </span>
            )}
          </div>
          <ScriptEditor
            ref={editor}
            initialText={text}
            errorLine={errorLine}
            onChange={doc.setText}
            onRun={() => void run()}
            libraryExports={libraryExportsOf(library.data)}
          />
          <div className="scripts__io">
            <div className="scripts__inputs">
              <RunInputs
                orgClient={orgClient}
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
            fields={doc.fields}
            onFields={doc.setFields}
            saved={open}
            dirty={doc.dirty}
            onSaved={(record) => {
              doc.markSaved(record);
              // The list shows the saved record at once (the refetch follows), so the form's
              // baseline is what was saved and "Saved" is true the moment it shows.
              queryClient.setQueryData<ScriptRecord[]>(scriptKeys.all(orgClient.org), (list) =>
                list?.some((s) => s._id === record._id)
                  ? list.map((s) => (s._id === record._id ? record : s))
                  : [...(list ?? []), record],
              );
              openScript(record._id);
            }}
          />
        </div>
      </div>
      {ask && <ConfirmDialog ask={ask} onClose={() => setAsk(null)} />}
    </section>
  );
}
