import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { faultOf } from '../api/api-error';
import type { OrgClient } from '../api/org-client';
import { currentArguments, VARIABLE_NAME, whereConditions, whereTemplate } from '../api/view-drafts';
import { saveView, viewKeys, viewRunUrl, type ViewDraft } from '../api/views';
import { Dialog } from './Dialog';
import { FaultMessage } from './FaultMessage';
import '../styles/views.css';
import { Field, FieldError } from './Field';
import { useServiceOrigin } from '../api/desktop-connections';

export interface SaveAsViewQuery {
  /** The object type the browser shows (a view's `sourceObject`). */
  objectName: string;
  where: Record<string, unknown> | undefined;
  sort: Record<string, 1 | -1> | undefined;
  paths: readonly string[];
  limit: number;
}

interface SaveAsViewDialogProps {
  orgClient: OrgClient;
  query: SaveAsViewQuery;
  /** The org in the console's URL (kept in the link to the new view). */
  routeOrg: string | undefined;
  onClose: () => void;
}

const VIEW_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/**
 * "Save as view" from the object browser: the current query's where conditions, each of which can
 * become a variable (filled from `?name=` when the view runs); saved as a view record. Opened by
 * one button in Browse; it reads the applied query and changes nothing there.
 */
export function SaveAsViewDialog({ orgClient, query, routeOrg, onClose }: SaveAsViewDialogProps) {
  // Copied URLs name the service that answers (on the desktop, not the gateway's origin).
  const serviceOrigin = useServiceOrigin();
  const queryClient = useQueryClient();
  const conditions = useMemo(() => whereConditions(query.where), [query.where]);
  const [name, setName] = useState('');
  const [label, setLabel] = useState('');
  const [chosen, setChosen] = useState<Map<string, string>>(new Map());
  const variables = conditions.filter((c) => chosen.has(c.id)).map((c) => ({ path: c.path, name: chosen.get(c.id)! }));
  const badName = variables.find((v) => !VARIABLE_NAME.test(v.name));
  const names = variables.map((v) => v.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  const whereText = query.where ? whereTemplate(query.where, variables) : '';
  const draft: ViewDraft = {
    name: name.trim(),
    label: label.trim() || name.trim(),
    sourceObject: query.objectName,
    active: true,
    principal: null,
    acl: [],
    limit: { settable: true, defaultValue: Math.min(query.limit, 100), min: 1, max: 1000 },
    skip: { settable: true },
    paths: query.paths.length > 0 ? { settable: false, defaultValue: [...query.paths] } : { settable: false },
    query: [
      ...(whereText ? [{ name: 'where', value: whereText }] : []),
      ...(query.sort ? [{ name: 'sort', value: JSON.stringify(query.sort) }] : []),
    ],
  };
  const save = useMutation({
    mutationFn: () => saveView(orgClient, draft),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewKeys.all(orgClient.org) }),
  });
  const nameOk = VIEW_NAME.test(name.trim());
  const args = currentArguments(conditions, chosen);
  const href = `#/views?name=${encodeURIComponent(draft.name)}${routeOrg ? `&org=${encodeURIComponent(routeOrg)}` : ''}`;

  const toggle = (id: string, suggested: string, on: boolean) =>
    setChosen((m) => {
      const next = new Map(m);
      if (on) next.set(id, suggested);
      else next.delete(id);
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (nameOk && !badName && !duplicate) save.mutate();
  };

  return (
    <Dialog title="Save as view" onClose={onClose} testId="save-view-dialog">
      {save.isSuccess ? (
        <>
          <p className="note note--ok" role="status" data-testid="save-view-done">
            Saved the view <code>{save.data.name}</code>.
          </p>
          <div className="view-url">
            <code data-testid="save-view-url">{viewRunUrl(serviceOrigin, orgClient.org, save.data.name, args)}</code>
          </div>
          <div className="form__actions">
            <a className="button button--primary" href={href} data-testid="save-view-open" onClick={onClose}>
              Open in Views
            </a>
            <button type="button" className="button button--ghost" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <div className="form-grid">
            <Field
              label="Name (in the URL)"
              error={!nameOk && name !== '' && 'Letters, digits and _, starting with a letter or _.'}
            >
              <input
                className="input input--mono"
                data-testid="save-view-name"
                value={name}
                autoFocus
                onChange={(e) => setName(e.target.value)}
              />
            </Field>
            <Field label="Label">
              <input
                className="input"
                data-testid="save-view-label"
                value={label}
                onChange={(e) => setLabel(e.target.value)}
              />
            </Field>
          </div>
          <p className="panel__heading">
            Conditions of <code>{query.objectName}</code>
          </p>
          {conditions.length === 0 && (
            <p className="note">This query has no where conditions: the view lists everything.</p>
          )}
          <ul className="save-view__conditions" data-testid="save-view-conditions">
            {conditions.map((c) => (
              <li key={c.id} className="save-view__condition" data-testid="save-view-condition" data-label={c.label}>
                <label className="check">
                  <input
                    type="checkbox"
                    disabled={!c.variable}
                    checked={chosen.has(c.id)}
                    data-testid="save-view-variable"
                    onChange={(e) => toggle(c.id, c.suggestedName, e.target.checked)}
                  />
                  <span>
                    make <code>{c.label}</code> a variable
                  </span>
                </label>
                {chosen.has(c.id) && (
                  <input
                    className="input input--mono"
                    aria-label={`Variable name for ${c.label}`}
                    data-testid="save-view-variable-name"
                    value={chosen.get(c.id)}
                    onChange={(e) => setChosen((m) => new Map(m).set(c.id, e.target.value))}
                  />
                )}
              </li>
            ))}
          </ul>
          {(badName || duplicate) && (
            <FieldError alert>
              {badName
                ? `${badName.name || 'An empty name'} is not a variable name (letters, digits and _).`
                : `Two conditions share the variable ${duplicate}.`}
            </FieldError>
          )}
          <p className="panel__heading">The view&apos;s query</p>
          <pre className="save-view__preview" data-testid="save-view-preview">
            {draft.query?.map((q) => `${q.name}: ${q.value}`).join('\n') || '(no query: every record)'}
          </pre>
          <p className="note">
            Only administrators may run it until you add who may (acl) on the Views screen; limit{' '}
            {draft.limit?.defaultValue} per page, settable up to 1000.
          </p>
          {save.isError && <FaultMessage fault={faultOf(save.error)} compact />}
          <div className="form__actions">
            <button
              type="submit"
              className="button button--primary"
              data-testid="save-view-submit"
              disabled={!nameOk || Boolean(badName) || Boolean(duplicate) || save.isPending}
            >
              {save.isPending ? 'Saving…' : 'Save view'}
            </button>
            <button type="button" className="button button--ghost" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** The object browser's "Save as view" button with its dialog (one element to place in a toolbar). */
export function SaveAsViewButton(props: Omit<SaveAsViewDialogProps, 'onClose'>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button--secondary button--small"
        data-testid="save-as-view"
        onClick={() => setOpen(true)}
      >
        Save as view
      </button>
      {open && <SaveAsViewDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}
