import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { faultOf } from '../../api/api-error';
import { createDeployment, deploymentKeys, orgsQuery, type DeploymentRecord } from '../../api/environment';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';

/** Store a new deployment: a name, the org it writes into and the manifest of what it exports. */
export function NewDeploymentForm({
  orgClient,
  onDone,
}: {
  orgClient: OrgClient;
  onDone: (created: DeploymentRecord | null) => void;
}) {
  const queryClient = useQueryClient();
  const orgs = useQuery(orgsQuery(orgClient));
  const [name, setName] = useState('');
  const [targetOrg, setTargetOrg] = useState('');
  const [manifest, setManifest] = useState('{\n  "includes": ["*"]\n}');
  const create = useMutation({
    mutationFn: () => createDeployment(orgClient, { name: name.trim(), targetOrg, manifest }),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: deploymentKeys.all(orgClient.org) });
      onDone(created);
    },
  });
  const others = (orgs.data ?? []).filter((o) => o.code !== orgClient.org);
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
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field label="Target org">
          <select
            className="select"
            data-testid="deployment-target-org"
            value={targetOrg}
            onChange={(e) => setTargetOrg(e.target.value)}
          >
            <option value="">{orgs.isPending ? 'Loading…' : 'Choose…'}</option>
            {others.map((o) => (
              <option key={o.code} value={o.code}>
                {o.name} ({o.code})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Manifest (JSON, as on the Export tab)" wide>
          <textarea
            className="input input--mono"
            data-testid="deployment-manifest"
            spellCheck={false}
            value={manifest}
            onChange={(e) => setManifest(e.target.value)}
          />
        </Field>
      </div>
      {orgs.isError && <FaultMessage fault={faultOf(orgs.error)} compact />}
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
