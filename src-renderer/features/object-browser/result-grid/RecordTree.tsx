import { useState } from 'react';
import { copyText } from '../../../components/download';
import type { RecordReference, TreeNode } from './record-tree';

interface RecordTreeProps {
  nodes: TreeNode[];
  /** Opens a referenced record (in the drawer). */
  onOpenReference: (reference: RecordReference) => void;
}

/**
 * The record as a tree: key, type label and value per line, long values wrapped, documents and
 * arrays folded behind disclosure buttons (keyboard: Tab and Enter/Space), each line's value and path
 * copied with a button, and references as links that open the record they point to.
 */
export function RecordTree({ nodes, onOpenReference }: RecordTreeProps) {
  return (
    <ul className="rtree" data-testid="record-json" aria-label="Record">
      {nodes.map((node) => (
        <TreeLine key={node.key} node={node} depth={0} onOpenReference={onOpenReference} />
      ))}
    </ul>
  );
}

function TreeLine({
  node,
  depth,
  onOpenReference,
}: { node: TreeNode; depth: number } & Pick<RecordTreeProps, 'onOpenReference'>) {
  // Two levels open at first: a record reads at a glance; deeper documents and arrays on demand.
  // An expanded reference (a whole record) starts folded behind its link.
  const [open, setOpen] = useState(depth < 2 && !node.reference);
  const head = (
    <>
      <span className="rtree__key">{node.key}</span>
      <span className={`rtree__type rtree__type--${node.type.replace(/\[.*$/, '').toLowerCase()}`}>{node.type}</span>
    </>
  );
  if (node.children) {
    return (
      <li className="rtree__item" data-testid="tree-node" data-path={node.path}>
        <div className="rtree__line">
          <button
            type="button"
            className="rtree__toggle"
            aria-expanded={open}
            data-testid="tree-toggle"
            onClick={() => setOpen(!open)}
          >
            <span className="rtree__caret" aria-hidden="true">
              {open ? '▾' : '▸'}
            </span>
            {head}
          </button>
          {node.reference && <ReferenceButton node={node} onOpenReference={onOpenReference} />}
          <Copies node={node} />
        </div>
        {open &&
          (node.children.length === 0 ? (
            <p className="rtree__empty">{node.type.startsWith('Document') ? '{ }' : '[ ]'}</p>
          ) : (
            <ul className="rtree__children">
              {node.children.map((child) => (
                <TreeLine key={child.key} node={child} depth={depth + 1} onOpenReference={onOpenReference} />
              ))}
            </ul>
          ))}
      </li>
    );
  }
  return (
    <li className="rtree__item" data-testid="tree-node" data-path={node.path}>
      <div className="rtree__line rtree__line--leaf">
        {head}
        {node.reference ? (
          <ReferenceButton node={node} onOpenReference={onOpenReference} />
        ) : (
          <span
            className={node.type === 'null' ? 'rtree__value rtree__value--null' : 'rtree__value'}
            data-testid="tree-value"
          >
            {node.text}
          </span>
        )}
        <Copies node={node} />
      </div>
    </li>
  );
}

/** A reference as a link that opens the record it points to in the drawer. */
function ReferenceButton({ node, onOpenReference }: { node: TreeNode } & Pick<RecordTreeProps, 'onOpenReference'>) {
  return (
    <button
      type="button"
      className="button--link rtree__value rtree__ref"
      data-testid="tree-reference"
      title={`Open ${node.reference?.object ?? ''} ${node.reference?.id ?? ''} here`}
      onClick={() => node.reference && onOpenReference(node.reference)}
    >
      {node.text}
    </button>
  );
}

/** "Copy value" and "copy path", with a word that they worked (or that the clipboard refused). */
function Copies({ node }: { node: TreeNode }) {
  const [done, setDone] = useState<string | null>(null);
  const copy = (what: 'value' | 'path') => {
    void copyText(what === 'value' ? node.copy : node.path).then((ok) => {
      setDone(ok ? `${what} copied` : 'copy refused');
      setTimeout(() => setDone(null), 1500);
    });
  };
  return (
    <span className="rtree__copies">
      <button
        type="button"
        className="rtree__copy"
        data-testid="tree-copy-value"
        aria-label={`Copy the value of ${node.path}`}
        onClick={() => copy('value')}
      >
        value
      </button>
      <button
        type="button"
        className="rtree__copy"
        data-testid="tree-copy-path"
        aria-label={`Copy the path ${node.path}`}
        onClick={() => copy('path')}
      >
        path
      </button>
      <span className="rtree__done" aria-live="polite">
        {done}
      </span>
    </span>
  );
}
