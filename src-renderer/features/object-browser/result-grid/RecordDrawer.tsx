import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { faultOf } from '../../../api/api-error';
import type { OrgClient } from '../../../api/org-client';
import { recordQuery, type ObjectRecord } from '../../../api/records';
import { schemaDef, type Schema } from '../../../api/schemas';
import { normalizeList, type ListEnvelope } from '../../../api/types';
import { FaultMessage } from '../../../components/FaultMessage';
import { DEFAULT_LIST_ARGS, ListPropertyPanel, prefixedListArgs, type ListPropertyArgs } from './ListPropertyPanel';

interface RecordDrawerProps {
  orgClient: OrgClient;
  schema: Schema;
  schemas: Schema[];
  id: string;
  org: string | undefined;
  onClose: () => void;
  /** Actions for the record (edit, delete), rendered in the drawer's header. */
  actions?: (record: ObjectRecord) => ReactNode;
}

/** The full object, with each list property (e.g. `connections`) as its own paged list. */
export function RecordDrawer({ orgClient, schema, schemas, id, org, onClose, actions }: RecordDrawerProps) {
  const listProps = schema.properties.filter((p) => p.type === 'List');
  const [listArgs, setListArgs] = useState<Record<string, ListPropertyArgs>>(() =>
    Object.fromEntries(listProps.map((p) => [p.name, DEFAULT_LIST_ARGS])),
  );
  const record = useQuery(recordQuery(orgClient, schema.collection, id, prefixedListArgs(listArgs)));
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const data = record.data;
  const plain = data
    ? Object.fromEntries(Object.entries(data).filter(([k]) => !listProps.some((p) => p.name === k)))
    : null;

  return (
    <aside
      className="drawer"
      role="dialog"
      aria-modal="false"
      aria-label={`${schema.name} ${id}`}
      data-testid="record-drawer"
    >
      <header className="drawer__header">
        <div>
          <p className="drawer__kind">{schema.label}</p>
          <h2 className="drawer__title">
            <code data-testid="record-id">{id}</code>
          </h2>
        </div>
        <div className="drawer__actions">
          {data && actions?.(data)}
          <button
            ref={closeButton}
            type="button"
            className="button button--ghost"
            onClick={onClose}
            data-testid="record-close"
            aria-label="Close (Esc)"
          >
            Close
          </button>
        </div>
      </header>
      <div className="drawer__body">
        {record.isError && <FaultMessage fault={faultOf(record.error)} onRetry={() => void record.refetch()} />}
        {record.isPending && <p className="qb-hint">Loading the record…</p>}
        {plain && (
          <pre className="json-view" data-testid="record-json">
            {JSON.stringify(plain, null, 2)}
          </pre>
        )}
        {data &&
          listProps.map((prop) => {
            const refSchema = schemas.find((s) => s.name === prop.refObject);
            const envelope = data[prop.name] as ListEnvelope<ObjectRecord> | undefined;
            return (
              <ListPropertyPanel
                key={prop.name}
                name={prop.name}
                def={refSchema ? schemaDef(refSchema) : undefined}
                page={envelope && Array.isArray(envelope.data) ? normalizeList(envelope) : undefined}
                args={listArgs[prop.name] ?? DEFAULT_LIST_ARGS}
                onArgs={(args) => setListArgs((all) => ({ ...all, [prop.name]: args }))}
                org={org}
              />
            );
          })}
      </div>
    </aside>
  );
}
