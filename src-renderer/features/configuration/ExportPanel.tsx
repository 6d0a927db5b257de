import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { faultOf } from '../../api/api-error';
import {
  buildManifest,
  CONFIG_SECTIONS,
  defaultChoices,
  exportEnvironment,
  parseNdjson,
  resourcesOf,
  type ManifestChoices,
  type SectionChoice,
} from '../../api/environment';
import type { OrgClient } from '../../api/org-client';
import type { Schema } from '../../api/schemas';
import { CopyButton } from '../../components/CopyButton';
import { downloadBlob } from '../../components/download';
import { FaultMessage } from '../../components/FaultMessage';

const SECTION_HINTS: Record<string, string> = {
  objects: 'object definitions and their custom properties',
  roles: 'roles with their scopes and included roles (by code)',
  apps: 'applications, without keys, secrets or private keys',
  views: 'stored queries',
  scripts: 'library, route and job scripts',
  settings: "org settings (not the operator's limits, nor scripts' counters)",
  configs: "scripts' configuration values (require('config')), one per key",
  policies: 'request policies of the org',
};

const names = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The manifest editor: pick sections and names, see the manifest, export and download as NDJSON. */
export function ExportPanel({ orgClient, schemas }: { orgClient: OrgClient; schemas: Schema[] }) {
  const [choices, setChoices] = useState<ManifestChoices>(defaultChoices);
  const manifest = buildManifest(choices);
  const manifestText = JSON.stringify(manifest, null, 2);
  const customTypes = schemas.filter((s) => s.custom || s.name.startsWith('c_')).map((s) => s.name);
  const exporter = useMutation({
    mutationFn: async () => {
      const text = await exportEnvironment(orgClient, manifest);
      return { text, docs: parseNdjson(text) };
    },
  });
  // The result lands under the manifest, below the fold in a short window: bring it into view.
  const result = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (exporter.data) result.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [exporter.data]);
  const setSection = (key: string, record: boolean, patch: Partial<SectionChoice>) =>
    setChoices((c) => {
      if (record) {
        const was = c.records[key] ?? { on: false, names: [], excludes: [] };
        return { ...c, records: { ...c.records, [key]: { ...was, ...patch } } };
      }
      const section = key as keyof ManifestChoices['sections'];
      return { ...c, sections: { ...c.sections, [section]: { ...c.sections[section], ...patch } } };
    });

  const row = (key: string, choice: SectionChoice, record: boolean, hint: string) => (
    <div className="config-section" key={key} data-testid="manifest-section" data-section={key}>
      <label className="check" title={hint}>
        <input
          type="checkbox"
          checked={choice.on}
          data-testid="manifest-section-on"
          onChange={(e) => setSection(key, record, { on: e.target.checked })}
        />
        <code>{key}</code>
      </label>
      <input
        className="input input--mono"
        aria-label={`${key}: names to include`}
        placeholder="all"
        data-testid="manifest-section-names"
        disabled={!choice.on}
        value={choice.names.join(', ')}
        onChange={(e) => setSection(key, record, { names: names(e.target.value) })}
      />
      <input
        className="input input--mono"
        aria-label={`${key}: names to exclude`}
        placeholder="exclude…"
        data-testid="manifest-section-excludes"
        disabled={!choice.on}
        value={choice.excludes.join(', ')}
        onChange={(e) => setSection(key, record, { excludes: names(e.target.value) })}
      />
    </div>
  );

  const docs = exporter.data?.docs;
  const resources = docs ? resourcesOf(docs) : [];
  const complete = docs?.at(-1)?.object === 'manifest-exports';

  return (
    <div className="config-split">
      <section className="panel" aria-label="Manifest">
        <p className="panel__title">What to export</p>
        <p className="note">Names are comma-separated; blank selects every one. A section may use /regex/flags.</p>
        <div className="config-sections" data-testid="manifest-editor">
          {CONFIG_SECTIONS.map((s) => row(s, choices.sections[s], false, SECTION_HINTS[s] ?? ''))}
          {customTypes.length > 0 && <p className="panel__heading">Records of custom objects (by _id)</p>}
          {customTypes.map((t) =>
            row(t, choices.records[t] ?? { on: false, names: [], excludes: [] }, true, `records of ${t}`),
          )}
        </div>
      </section>
      <section className="panel" aria-label="Manifest JSON and export">
        <p className="panel__title">Manifest</p>
        <pre className="config-json" data-testid="manifest-json" tabIndex={0} aria-label="Manifest JSON">
          {manifestText}
        </pre>
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary"
            data-testid="export-run"
            disabled={exporter.isPending}
            onClick={() => exporter.mutate()}
          >
            {exporter.isPending ? 'Exporting…' : 'Export'}
          </button>
          <CopyButton text={manifestText} testId="manifest-copy" label="Copy manifest" />
        </div>
        {exporter.isError && <FaultMessage fault={faultOf(exporter.error)} compact />}
        {exporter.data && (
          <div className="config-result" data-testid="export-result" ref={result}>
            <p className={complete ? 'note note--ok' : 'note note--warn'} data-testid="export-summary">
              {resources.length} resources
              {complete ? ', complete (ends with manifest-exports).' : ': incomplete, no manifest-exports line.'}
            </p>
            <ul className="config-log" data-testid="export-resources">
              {resources.map((d) => (
                <li key={d.resource}>{d.resource}</li>
              ))}
            </ul>
            <div className="form__actions">
              <button
                type="button"
                className="button button--secondary"
                data-testid="export-download"
                onClick={() =>
                  downloadBlob(
                    new Blob([exporter.data.text], { type: 'application/x-ndjson' }),
                    `${orgClient.org}-configuration.ndjson`,
                  )
                }
              >
                Download .ndjson
              </button>
            </div>
          </div>
        )}
      </section>
    </div>
  );
}
