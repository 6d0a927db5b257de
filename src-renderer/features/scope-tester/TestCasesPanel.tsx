import { useRef, useState } from 'react';
import { resolveRoleScopes, type Role } from '../../api/roles';
import type { ScopeTesterRoute } from './tester-route';
import { downloadBlob } from '../../components/download';
import { evaluateBatch, summarizeBatch, type BatchSummary } from './batch';
import {
  loadCases,
  mergeCases,
  parseTestCaseFile,
  removeCase,
  serializeTestCases,
  storeCases,
  upsertCase,
  type TestCase,
} from './test-cases';

interface TestCasesPanelProps {
  org: string;
  route: ScopeTesterRoute;
  roles: Role[];
  currentChains: string[];
  currentRoles: string[];
  onLoad: (state: Pick<ScopeTesterRoute, 'source' | 'chains' | 'roles' | 'rows'>) => void;
}

const storage = (): Storage | undefined => (typeof window === 'undefined' ? undefined : window.localStorage);

/** Re-runs a saved case with today's role definitions: how many rows still get the expected verdict. */
export function runCase(entry: TestCase, roles: readonly Role[]): BatchSummary {
  const chains = [
    ...new Set([...entry.chains, ...resolveRoleScopes(roles, entry.roles).scopes.map((scope) => scope.chain)]),
  ];
  return summarizeBatch(evaluateBatch(chains, entry.rows));
}

/** Saved test cases (localStorage, per org): save, load, re-run, delete, export and import. */
export function TestCasesPanel({ org, route, roles, currentChains, currentRoles, onLoad }: TestCasesPanelProps) {
  const [cases, setCases] = useState<TestCase[]>(() => loadCases(storage(), org));
  const [name, setName] = useState('');
  const [runs, setRuns] = useState<Record<string, BatchSummary>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const commit = (next: TestCase[]) => {
    setCases(next);
    storeCases(storage(), org, next);
  };

  const save = () => {
    const trimmed = name.trim();
    if (trimmed === '') return;
    commit(
      upsertCase(cases, {
        name: trimmed,
        chains: currentChains,
        roles: currentRoles,
        rows: route.rows,
        savedAt: new Date().toISOString(),
      }),
    );
    setMessage({ ok: true, text: `Saved “${trimmed}”.` });
  };

  const runAll = () => {
    const next: Record<string, BatchSummary> = {};
    for (const entry of cases) next[entry.name] = runCase(entry, roles);
    setRuns(next);
  };

  const importFile = async (file: File) => {
    try {
      const imported = parseTestCaseFile(await file.text());
      commit(mergeCases(cases, imported));
      setMessage({ ok: true, text: `Imported ${imported.length} test case${imported.length === 1 ? '' : 's'}.` });
    } catch (error) {
      setMessage({ ok: false, text: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <div className="panel" data-testid="tester-cases">
      <div className="access-toolbar">
        <p className="panel__title">Test cases</p>
        <span className="query-panel__spacer" />
        <button
          type="button"
          className="button button--secondary"
          data-testid="cases-run-all"
          disabled={cases.length === 0}
          onClick={runAll}
        >
          Run all
        </button>
        <button
          type="button"
          className="button button--secondary"
          data-testid="cases-export"
          disabled={cases.length === 0}
          onClick={() =>
            downloadBlob(
              new Blob([serializeTestCases(cases)], { type: 'application/json' }),
              `scope-test-cases-${org}.json`,
            )
          }
        >
          Export…
        </button>
        <button
          type="button"
          className="button button--secondary"
          data-testid="cases-import"
          onClick={() => fileInput.current?.click()}
        >
          Import…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="cases-import-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void importFile(file);
          }}
        />
      </div>
      <form
        className="access-toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <input
          className="input"
          aria-label="Test case name"
          placeholder="Name this test case"
          data-testid="case-name"
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
        />
        <button
          type="submit"
          className="button button--primary"
          data-testid="case-save"
          disabled={name.trim() === '' || route.rows.length === 0}
        >
          Save current as test case
        </button>
        {route.rows.length > 0 && !route.rows.some((row) => row.expected) && (
          <span className="note note--warn">No row has an expected verdict yet.</span>
        )}
      </form>
      {message && (
        <p className={message.ok ? 'note note--ok' : 'field__error'} role="status" data-testid="cases-message">
          {message.text}
        </p>
      )}
      {cases.length === 0 ? (
        <p className="note" data-testid="cases-empty">
          No saved test cases. Save the current requests with their expected verdicts, or import a file.
        </p>
      ) : (
        <ul className="case-list" data-testid="case-list">
          {cases.map((entry) => {
            const run = runs[entry.name];
            return (
              <li key={entry.name} data-testid="case-item" data-name={entry.name}>
                <span className="case-list__name">{entry.name}</span>
                <span className="note">
                  {entry.chains.length} chains · {entry.roles.length} roles · {entry.rows.length} requests
                </span>
                {run && (
                  <span
                    className={run.failed > 0 ? 'outcome--fail' : 'outcome--pass'}
                    data-testid="case-result"
                    data-failed={run.failed}
                    data-passed={run.passed}
                  >
                    {run.passed} pass · {run.failed} fail
                  </span>
                )}
                <button
                  type="button"
                  className="button button--secondary button--small"
                  data-testid="case-run"
                  onClick={() => setRuns({ ...runs, [entry.name]: runCase(entry, roles) })}
                >
                  Run
                </button>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  data-testid="case-load"
                  onClick={() => {
                    setName(entry.name);
                    onLoad({ source: 'chains', chains: entry.chains.join('\n'), roles: entry.roles, rows: entry.rows });
                  }}
                >
                  Open
                </button>
                <button
                  type="button"
                  className="button button--ghost button--small"
                  data-testid="case-delete"
                  aria-label={'Remove test case ' + entry.name}
                  onClick={() => commit(removeCase(cases, entry.name))}
                >
                  Delete
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
