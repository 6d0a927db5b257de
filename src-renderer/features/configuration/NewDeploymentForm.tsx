import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { faultOf } from '../../api/api-error';
import { useConsoleClient } from '../../api/client-context';
import { createDeployment, deploymentKeys, type DeploymentRecord } from '../../api/environment';
import type { OrgClient } from '../../api/org-client';
import { serviceInfoQuery } from '../../api/service';
import { sessionQuery } from '../../api/session';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';
import { SourceCredential, TargetCredential } from './CredentialFields';
import { credentialsNeeded, deploymentDraft, EMPTY_DEPLOYMENT_FORM, type DeploymentForm } from './deployment-draft';

const KIND_LABELS = {
  org: 'An org of this service',
  folder: 'An org of another data folder',
  url: 'An org of another service (URL)',
} as const;

/**
 * Store a new deployment: a name, where it reads (this org, or another with its token), where it
 * writes (with the target's credential) and the manifest of what it exports. Folder targets are
 * offered to the service operator only, who alone may use them.
 */
export function NewDeploymentForm({
  orgClient,
  onDone,
}: {
  orgClient: OrgClient;
  onDone: (created: DeploymentRecord | null) => void;
}) {
  const queryClient = useQueryClient();
  const info = useQuery(serviceInfoQuery(useConsoleClient()));
  const operator = useQuery(sessionQuery(orgClient)).data?.operator === true;
  const [form, setForm] = useState<DeploymentForm>(EMPTY_DEPLOYMENT_FORM);
  const set = <K extends keyof DeploymentForm>(key: K, value: DeploymentForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const create = useMutation({
    mutationFn: () => createDeployment(orgClient, deploymentDraft(form, orgClient.org)),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: deploymentKeys.all(orgClient.org) });
      onDone(created);
    },
  });
  const orgs = info.data?.orgs ?? [];
  const source = form.sourceOrg || orgClient.org;
  const needs = credentialsNeeded(form, orgClient.org);
  const kinds: DeploymentForm['targetKind'][] = operator ? ['org', 'folder', 'url'] : ['org', 'url'];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="panel__section" data-testid="deployment-form" onSubmit={submit}>
      <p className="panel__heading">New deployment</p>
      <div className="form-grid">
        <Field label="Name">
          <input
            className="input input--mono"
            data-testid="deployment-name"
            value={form.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <Field label="Read from">
          <select
            className="select"
            data-testid="deployment-source-org"
            value={form.sourceOrg}
            onChange={(e) => set('sourceOrg', e.target.value)}
          >
            <option value="">This org ({orgClient.org})</option>
            {orgs
              .filter((o) => o.code !== orgClient.org)
              .map((o) => (
                <option key={o.code} value={o.code}>
                  {o.name} ({o.code})
                </option>
              ))}
          </select>
        </Field>
        <Field label="Write to">
          <select
            className="select"
            data-testid="deployment-target-kind"
            value={form.targetKind}
            onChange={(e) => set('targetKind', e.target.value as DeploymentForm['targetKind'])}
          >
            {kinds.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </Field>
        {form.targetKind === 'org' ? (
          <Field label="Target org">
            <select
              className="select"
              data-testid="deployment-target-org"
              value={form.targetOrg}
              onChange={(e) => set('targetOrg', e.target.value)}
            >
              <option value="">{info.isPending ? 'Loading…' : 'Choose…'}</option>
              {orgs
                .filter((o) => o.code !== source)
                .map((o) => (
                  <option key={o.code} value={o.code}>
                    {o.name} ({o.code}){o.code === orgClient.org ? ' — this org' : ''}
                  </option>
                ))}
            </select>
          </Field>
        ) : (
          <Field label="Target org code">
            <input
              className="input input--mono"
              data-testid="deployment-target-org-code"
              value={form.targetOrg}
              onChange={(e) => set('targetOrg', e.target.value)}
            />
          </Field>
        )}
        {form.targetKind === 'folder' && (
          <Field label="Data folder (absolute path)" wide>
            <input
              className="input input--mono"
              data-testid="deployment-target-folder"
              value={form.targetDataDir}
              onChange={(e) => set('targetDataDir', e.target.value)}
            />
          </Field>
        )}
        {form.targetKind === 'url' && (
          <Field label="Service address" wide hint="e.g. http://127.0.0.1:7790">
            <input
              className="input input--mono"
              data-testid="deployment-target-url"
              value={form.targetUrl}
              onChange={(e) => set('targetUrl', e.target.value)}
            />
          </Field>
        )}
      </div>
      {needs.source && <SourceCredential form={form} set={set} />}
      {needs.target && <TargetCredential form={form} set={set} />}
      <div className="form-grid">
        <Field label="Manifest (JSON, as on the Export tab)" wide>
          <textarea
            className="input input--mono"
            data-testid="deployment-manifest"
            spellCheck={false}
            value={form.manifest}
            onChange={(e) => set('manifest', e.target.value)}
          />
        </Field>
      </div>
      {info.isError && <FaultMessage fault={faultOf(info.error)} compact />}
      {create.isError && <FaultMessage fault={faultOf(create.error)} compact />}
      <div className="form__actions">
        <button
          type="submit"
          className="button button--primary"
          data-testid="deployment-create"
          disabled={create.isPending}
        >
          Create
        </button>
        <button type="button" className="button button--ghost" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
