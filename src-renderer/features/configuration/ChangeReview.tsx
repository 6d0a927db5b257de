import { useState } from 'react';
import type { ChangeKind, ResourceChange } from '../../api/environment';
import { sideBySide } from '../../api/json-diff';

const KINDS: ChangeKind[] = ['added', 'changed', 'kept', 'unchanged'];

export function ChangeCounts({ changes }: { changes: { change: string }[] }) {
  return (
    <div className="config-counts" data-testid="change-counts">
      {KINDS.map((kind) => {
        const n = changes.filter((c) => c.change === kind).length;
        return (
          <span key={kind} className={`badge change--${kind}`} data-testid={`count-${kind}`} data-count={n}>
            {n} {kind}
          </span>
        );
      })}
    </div>
  );
}

/**
 * A dry run's changes per resource; picking one shows this org's document beside the incoming one.
 * Unchanged resources are hidden unless asked for (they are most of a repeated import).
 */
export function ChangeReview({
  changes,
  sides = { before: 'This org', after: 'Incoming' },
}: {
  changes: ResourceChange[];
  /** The diff's column titles: where the documents are now, and what would replace them. */
  sides?: { before: string; after: string };
}) {
  const [showUnchanged, setShowUnchanged] = useState(false);
  const [open, setOpen] = useState<string | null>(
    () =>
      changes.find((c) => c.change === 'changed')?.resource ??
      changes.find((c) => c.change !== 'unchanged')?.resource ??
      null,
  );
  const shown = changes.filter((c) => showUnchanged || c.change !== 'unchanged');
  const selected = changes.find((c) => c.resource === open);
  return (
    <div className="config-split" data-testid="change-review">
      <div>
        <ChangeCounts changes={changes} />
        <label className="check">
          <input type="checkbox" checked={showUnchanged} onChange={(e) => setShowUnchanged(e.target.checked)} />
          Show unchanged
        </label>
        <ul className="config-changes" data-testid="change-list">
          {shown.length === 0 && <li className="note">Nothing would change.</li>}
          {shown.map((c) => (
            <li key={c.resource}>
              <button
                type="button"
                className="config-change"
                aria-pressed={c.resource === open}
                data-testid="change-item"
                data-resource={c.resource}
                data-change={c.change}
                onClick={() => setOpen(c.resource)}
              >
                <span className={`badge change--${c.change}`}>{c.change}</span>
                <code>{c.resource}</code>
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div>
        {selected ? <JsonDiff change={selected} sides={sides} /> : <p className="note">Pick a resource to compare.</p>}
      </div>
    </div>
  );
}

function JsonDiff({ change, sides }: { change: ResourceChange; sides: { before: string; after: string } }) {
  const rows = sideBySide(change.before, change.after);
  return (
    <div className="json-diff__wrap" data-testid="json-diff" data-resource={change.resource}>
      <table className="json-diff">
        <colgroup>
          <col className="json-diff__n-col" />
          <col />
          <col className="json-diff__n-col" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th colSpan={2}>
              {sides.before}
              {change.before ? '' : ' (none)'}
            </th>
            <th colSpan={2}>
              {sides.after}
              {change.after ? '' : ' (none)'}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td className="json-diff__n">{r.left?.line ?? ''}</td>
              <td
                className={r.left && r.left.kind !== 'same' ? `json-diff--${r.left.kind}` : undefined}
                data-testid="diff-left"
              >
                {r.left?.text ?? ''}
              </td>
              <td className="json-diff__n">{r.right?.line ?? ''}</td>
              <td
                className={r.right && r.right.kind !== 'same' ? `json-diff--${r.right.kind}` : undefined}
                data-testid="diff-right"
              >
                {r.right?.text ?? ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
