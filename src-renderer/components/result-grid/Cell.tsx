import { formatTimestamp } from '../format-cells';
import type { Column } from './columns';

/** A reference `{_id, object, path}` as the service returns it. */
export interface ReferenceValue {
  _id: string;
  object: string;
  path: string;
}

export function isReference(value: unknown): value is ReferenceValue {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v._id === 'string' && typeof v.object === 'string' && typeof v.path === 'string';
}

/** `/accounts/<id>` → the browser's hash for that record (collection + open drawer). */
export function referenceHash(reference: ReferenceValue, org: string | undefined): string | null {
  const match = /^\/([A-Za-z_][A-Za-z0-9_]*)\/([0-9a-f]{24})$/i.exec(reference.path);
  if (!match) return null;
  const params = new URLSearchParams({ c: match[1] ?? '', limit: '100', skip: '0', record: match[2] ?? '' });
  if (org) params.set('org', org);
  return `#/browse?${params.toString()}`;
}

/** The whole value as text, for the hover title of a cell whose text may be cut. */
export function cellTitle(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

interface CellProps {
  column: Column;
  value: unknown;
  org: string | undefined;
}

/** One value, readable: dates as UTC, arrays as chips, references as links, documents as key: value. */
export function Cell({ column, value, org }: CellProps) {
  if (value === undefined || value === null) return <span className="cell-empty">—</span>;
  if (Array.isArray(value)) return <Chips items={value} org={org} />;
  if (isReference(value)) return <ReferenceLink reference={value} org={org} />;
  if (typeof value === 'object') return <span className="cell-doc">{summarize(value)}</span>;
  if (typeof value === 'boolean') {
    return <span className={value ? 'badge badge--ok' : 'badge badge--muted'}>{String(value)}</span>;
  }
  if (column.kind === 'date' && typeof value === 'string') {
    return (
      <span className="cell-mono" title={value}>
        {formatTimestamp(value)}
      </span>
    );
  }
  if (column.kind === 'id' || column.kind === 'number') return <span className="cell-mono">{String(value)}</span>;
  return <>{String(value)}</>;
}

function Chips({ items, org }: { items: unknown[]; org: string | undefined }) {
  if (items.length === 0) return <span className="cell-empty">[ ]</span>;
  const shown = items.slice(0, 4);
  return (
    <span className="chips">
      {shown.map((item, index) => (
        <span className="chip" key={index}>
          {isReference(item) ? (
            <ReferenceLink reference={item} org={org} />
          ) : typeof item === 'object' && item !== null ? (
            summarize(item)
          ) : (
            String(item)
          )}
        </span>
      ))}
      {items.length > shown.length && <span className="chip chip--more">+{items.length - shown.length}</span>}
    </span>
  );
}

function ReferenceLink({ reference, org }: { reference: ReferenceValue; org: string | undefined }) {
  const href = referenceHash(reference, org);
  const text = `${reference.object} ${reference._id.slice(-6)}`;
  if (!href) return <span className="cell-mono">{text}</span>;
  return (
    <a className="cell-link" href={href} title={reference.path} onClick={(e) => e.stopPropagation()}>
      {text}
    </a>
  );
}

function summarize(value: object): string {
  return Object.entries(value)
    .map(([key, v]) => `${key}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}
