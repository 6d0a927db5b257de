import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import {
  exportEnvironment,
  importComplete,
  importEnvironment,
  joinChanges,
  manifestOf,
  parseNdjson,
  readImportFile,
  resourcesOf,
  type ExportDoc,
  type ImportLogEntry,
} from '../../api/environment';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import { ChangeReview } from './ChangeReview';
import { Field, FieldError } from '../../components/Field';

const STAGES = ['ingest', 'backup', 'import', 'complete'] as const;

interface LoadedFile {
  file: File;
  docs: ExportDoc[];
  complete: boolean;
}

/**
 * Import a file: read it (gzip too), dry run on the service, review the diff, then apply with
 * progress from the `manifest.log` documents. Nothing is written before "Apply".
 */
export function ImportPanel({ orgClient }: { orgClient: OrgClient }) {
  const queryClient = useQueryClient();
  const [loaded, setLoaded] = useState<LoadedFile | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [backup, setBackup] = useState(false);
  const [triggers, setTriggers] = useState(false);
  const [liveLog, setLiveLog] = useState<ImportLogEntry[]>([]);

  const dryRun = useMutation({
    mutationFn: async (input: LoadedFile) => {
      const log = await importEnvironment(orgClient, input.file, { dryRun: true });
      const manifest = manifestOf(input.docs) ?? { includes: ['*'] };
      // This org in the same normal form as the file, for the side-by-side view.
      const current = parseNdjson(await exportEnvironment(orgClient, manifest));
      return { log, changes: joinChanges(log, input.docs, current) };
    },
  });
  const apply = useMutation({
    mutationFn: (input: LoadedFile) =>
      importEnvironment(orgClient, input.file, { dryRun: false, backup, triggers, onLog: setLiveLog }),
    onSuccess: (log) => {
      setLiveLog(log);
      // Everything in the org may have changed.
      void queryClient.invalidateQueries({ queryKey: ['org', orgClient.org] });
    },
  });

  const pick = async (file: File | undefined) => {
    dryRun.reset();
    apply.reset();
    setLiveLog([]);
    setLoaded(null);
    setReadError(null);
    if (!file) return;
    try {
      const docs = parseNdjson(await readImportFile(file));
      const input = { file, docs, complete: docs.at(-1)?.object === 'manifest-exports' };
      setLoaded(input);
      if (input.complete) dryRun.mutate(input);
    } catch (error) {
      setReadError(`This file is not an NDJSON export (gzip allowed): ${(error as Error).message}`);
    }
  };

  const done = apply.isSuccess && importComplete(apply.data);
  const stagesSeen = new Set(liveLog.filter((e) => e.type === 'status').map((e) => e.stage));

  return (
    <section className="panel" aria-label="Import">
      <p className="panel__title">Import a configuration file</p>
      <p className="note">
        An export of this or another org (<code>.ndjson</code> or <code>.ndjson.gz</code>). The service checks every
        resource first and applies all or nothing; references (roles in an acl, the object of a view) are by name.
      </p>
      <Field label="File">
        <input
          type="file"
          accept=".ndjson,.jsonl,.json,.gz,application/x-ndjson,application/gzip"
          data-testid="import-file"
          onChange={(e) => void pick(e.target.files?.[0])}
        />
      </Field>
      {readError && (
        <FieldError alert testId="import-read-error">
          {readError}
        </FieldError>
      )}
      {loaded && (
        <p className={loaded.complete ? 'note' : 'note note--warn'} data-testid="import-file-summary">
          {loaded.file.name}: {resourcesOf(loaded.docs).length} resources
          {loaded.complete ? '.' : ' — incomplete (no manifest-exports line); the service will refuse it.'}
        </p>
      )}
      {dryRun.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Dry run: comparing with this org…
        </p>
      )}
      {dryRun.isError && <FaultMessage fault={faultOf(dryRun.error)} compact />}
      {dryRun.data && (
        <>
          {/* After Apply the same changes are history: the heading says so instead of "dry run". */}
          <p className="panel__heading" data-testid="import-changes-heading">
            {done ? 'Applied: what changed' : apply.isPending ? 'Applying: what changes' : 'Dry run: what would change'}
          </p>
          <ChangeReview changes={dryRun.data.changes} />
          <div className="form__actions">
            <label className="check">
              <input
                type="checkbox"
                checked={backup}
                data-testid="import-backup"
                onChange={(e) => setBackup(e.target.checked)}
              />
              Keep a backup of the database first
            </label>
            <label className="check">
              <input
                type="checkbox"
                checked={triggers}
                data-testid="import-triggers"
                onChange={(e) => setTriggers(e.target.checked)}
              />
              Run the imported records&apos; triggers
            </label>
            <button
              type="button"
              className="button button--primary"
              data-testid="import-apply"
              disabled={apply.isPending || done || !loaded}
              onClick={() => loaded && apply.mutate(loaded)}
            >
              {apply.isPending ? 'Applying…' : done ? 'Applied' : 'Apply'}
            </button>
          </div>
        </>
      )}
      {(apply.isPending || apply.isSuccess || apply.isError) && (
        <div className="config-result" data-testid="import-progress">
          <div className="config-stages">
            {STAGES.filter((s) => s !== 'backup' || backup).map((s) => (
              <span
                key={s}
                className={stagesSeen.has(s) ? 'config-stage config-stage--done' : 'config-stage'}
                data-testid="import-stage"
                data-stage={s}
                data-done={stagesSeen.has(s)}
              >
                {s}
              </span>
            ))}
          </div>
          {apply.isError && <FaultMessage fault={faultOf(apply.error)} compact />}
          {done && (
            <p className="note note--ok" role="status" data-testid="import-done">
              Imported: {apply.data.filter((e) => e.change === 'added' || e.change === 'changed').length} resources
              written.
            </p>
          )}
          <ul className="config-log" data-testid="import-log">
            {liveLog.map((e, i) => (
              <li key={i}>
                {e.timestamp} {e.type === 'status' ? `[${e.stage}]` : `${e.change ?? ''} ${e.resource ?? ''}`}{' '}
                {e.message ?? ''}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
