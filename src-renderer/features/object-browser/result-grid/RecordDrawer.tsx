import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { faultOf } from '../../../api/api-error';
import type { OrgClient } from '../../../api/org-client';
import { recordQuery, type ObjectRecord } from '../../../api/records';
import { schemaDef, type Schema } from '../../../api/schemas';
import { normalizeList, type ListEnvelope } from '../../../api/types';
import { FaultMessage } from '../../../components/FaultMessage';
import { DEFAULT_LIST_ARGS, ListPropertyPanel, prefixedListArgs, type ListPropertyArgs } from './ListPropertyPanel';
import { expandableReferences, withOwner } from '../references/reference-paths';
import { recordTree, type RecordReference } from './record-tree';
import { RecordTree } from './RecordTree';

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

/** One step of the drawer: the record the grid opened, then any reference followed from it. */
interface Shown {
  schema: Schema;
  id: string;
}

/**
 * The full object as a tree (or as JSON), with each list property (e.g. `connections`) as its own
 * paged list. A reference opens the record it points to here, with a way back.
 */
export function RecordDrawer({ orgClient, schema, schemas, id, org, onClose, actions }: RecordDrawerProps) {
  const [trail, setTrail] = useState<Shown[]>([]);
  const [view, setView] = useState<'tree' | 'json'>('tree');
  const shown: Shown = trail.at(-1) ?? { schema, id };
  const closeButton = useRef<HTMLButtonElement>(null);
  const [loaded, setLoaded] = useState<ObjectRecord | undefined>(undefined);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const follow = (reference: RecordReference) => {
    const target = schemas.find((s) => s.name === reference.object);
    if (target) setTrail((t) => [...t, { schema: target, id: reference.id }]);
  };
  const previous = trail.length > 1 ? trail.at(-2) : trail.length === 1 ? { schema, id } : undefined;

  return (
    <aside
      className="drawer"
      role="dialog"
      aria-modal="false"
      aria-label={`${shown.schema.name} ${shown.id}`}
      data-testid="record-drawer"
    >
      <header className="drawer__header">
        <div>
          {previous && (
            <button
              type="button"
              className="button button--link drawer__back"
              data-testid="record-back"
              onClick={() => setTrail((t) => t.slice(0, -1))}
            >
              ← {previous.schema.label} {previous.id.slice(-6)}
            </button>
          )}
          <p className="drawer__kind">{shown.schema.label}</p>
          <h2 className="drawer__title">
            <code data-testid="record-id">{shown.id}</code>
          </h2>
        </div>
        <div className="drawer__actions">
          <div className="segmented" role="group" aria-label="Show the record as">
            {(['tree', 'json'] as const).map((v) => (
              <button
                key={v}
                type="button"
                className={view === v ? 'segmented__item segmented__item--on' : 'segmented__item'}
                aria-pressed={view === v}
                data-testid={`record-view-${v}`}
                onClick={() => setView(v)}
              >
                {v === 'tree' ? 'Tree' : 'JSON'}
              </button>
            ))}
          </div>
          {trail.length === 0 && loaded && actions?.(loaded)}
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
      <DrawerRecord
        key={`${shown.schema.name}:${shown.id}`}
        orgClient={orgClient}
        schema={shown.schema}
        schemas={schemas}
        id={shown.id}
        org={org}
        view={view}
        onLoaded={trail.length === 0 ? setLoaded : undefined}
        onOpenReference={follow}
      />
    </aside>
  );
}

interface DrawerRecordProps {
  orgClient: OrgClient;
  schema: Schema;
  schemas: Schema[];
  id: string;
  org: string | undefined;
  view: 'tree' | 'json';
  onLoaded: ((record: ObjectRecord | undefined) => void) | undefined;
  onOpenReference: (reference: RecordReference) => void;
}

function DrawerRecord({ orgClient, schema, schemas, id, org, view, onLoaded, onOpenReference }: DrawerRecordProps) {
  const listProps = schema.properties.filter((p) => p.type === 'List');
  const [listArgs, setListArgs] = useState<Record<string, ListPropertyArgs>>(() =>
    Object.fromEntries(listProps.map((p) => [p.name, DEFAULT_LIST_ARGS])),
  );
  const record = useQuery(recordQuery(orgClient, schema.collection, id, prefixedListArgs(listArgs)));
  const data = record.data;
  // The tree shows references expanded (issue 42): each the record it points to, read as the
  // caller, with a link that opens it here. The JSON view and the actions keep the stored record.
  const expand = useMemo(() => expandableReferences(schemaDef(schema)).map((r) => r.path), [schema]);
  const expanded = useQuery({
    ...recordQuery(orgClient, schema.collection, id, { expand }),
    enabled: view === 'tree' && expand.length > 0,
  });
  const treeProperties = useMemo(() => withOwner(schemaDef(schema)).properties, [schema]);
  const propertiesOf = useCallback((name: string) => schemas.find((s) => s.name === name)?.properties, [schemas]);
  const treeSource = (expanded.data ?? data) as ObjectRecord | undefined;
  const treePlain = treeSource
    ? Object.fromEntries(Object.entries(treeSource).filter(([k]) => !listProps.some((p) => p.name === k)))
    : null;
  useEffect(() => onLoaded?.(data), [data, onLoaded]);
  const plain = data
    ? Object.fromEntries(Object.entries(data).filter(([k]) => !listProps.some((p) => p.name === k)))
    : null;

  return (
    <div className="drawer__body">
      {record.isError && <FaultMessage fault={faultOf(record.error)} onRetry={() => void record.refetch()} />}
      {record.isPending && <p className="qb-hint">Loading the record…</p>}
      {plain &&
        (view === 'tree' && treePlain ? (
          <>
            {expanded.isError && (
              <p className="qb-hint">References are shown unexpanded: {faultOf(expanded.error).message}</p>
            )}
            <RecordTree nodes={recordTree(treePlain, treeProperties, propertiesOf)} onOpenReference={onOpenReference} />
          </>
        ) : (
          <pre className="json-view" data-testid="record-raw">
            {JSON.stringify(plain, null, 2)}
          </pre>
        ))}
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
  );
}
