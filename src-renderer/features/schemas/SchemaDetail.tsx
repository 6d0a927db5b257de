/** One object definition: its fully qualified paths, a sample analysis, delete, add a property. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { queryKeys } from '../../api/query-keys';
import { deleteSchema, type Schema } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import { NewPropertyForm } from './PropertyForms';
import { SchemaAnalysis } from './SchemaAnalysis';

export function SchemaDetail({
  orgClient,
  schema,
  onBrowse,
  onDeleted,
}: {
  orgClient: OrgClient;
  schema: Schema;
  onBrowse: () => void;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteSchema(orgClient, schema.name),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.schemas(orgClient.org) });
      onDeleted();
    },
  });
  return (
    <article className="schemas__detail" data-testid="schema-detail" aria-label={`${schema.name} definition`}>
      <header className="schemas__detail-header">
        <div>
          <h2 className="pane-title">{schema.label}</h2>
          <p className="qb-hint">
            object <code>{schema.name}</code> · collection <code>{schema.collection}</code>
          </p>
        </div>
        <div className="drawer__actions">
          <button type="button" className="button button--secondary button--small" onClick={onBrowse}>
            Browse records
          </button>
          {schema.custom &&
            (confirm ? (
              <button
                type="button"
                className="button button--danger button--small"
                data-testid="schema-delete-confirm"
                onClick={() => remove.mutate()}
              >
                Delete {schema.name} and all its records
              </button>
            ) : (
              <button type="button" className="button button--ghost button--small" onClick={() => setConfirm(true)}>
                Delete…
              </button>
            ))}
        </div>
      </header>
      {remove.isError && <FaultMessage fault={faultOf(remove.error)} compact />}
      <div className="grid-frame">
        <table className="grid" data-testid="schema-paths">
          <thead>
            <tr>
              <th scope="col">path</th>
              <th scope="col">type</th>
              <th scope="col">array</th>
              <th scope="col">indexed</th>
              <th scope="col">unique</th>
              <th scope="col">read-only</th>
              <th scope="col">refers to</th>
            </tr>
          </thead>
          <tbody>
            {schema.paths.map((p) => (
              <tr key={p.path} data-testid="schema-path-row">
                <td className="grid__id">{p.path}</td>
                <td>{p.type}</td>
                <td>{p.array ? 'yes' : ''}</td>
                <td>{p.indexed ? <span className="badge badge--ok">indexed</span> : ''}</td>
                <td>{p.unique ? 'unique' : ''}</td>
                <td>{p.readOnly ? 'read-only' : ''}</td>
                <td>{p.refObject ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <SchemaAnalysis orgClient={orgClient} schema={schema} />
      <NewPropertyForm orgClient={orgClient} schema={schema} />
    </article>
  );
}
