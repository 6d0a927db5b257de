import { useEffect, useRef } from 'react';
import {
  appendChild,
  condition,
  emptyGroup,
  jsonOperand,
  removeNode,
  updateNode,
  type BuilderNode,
  type ConditionNode,
  type GroupNode,
} from './builder-state';
import { conditionView } from './condition-view';
import { operatorText, operatorsFor, type BuilderOperator, type QueryablePath } from './operators';
import { ValueEditor } from './ValueEditor';
import { adaptValue, defaultValue, firstConditionField } from './values';

interface TreeProps {
  root: GroupNode;
  fields: QueryablePath[];
  onChange: (root: GroupNode) => void;
}

/**
 * The visual `where`: nested `$and` / `$or` groups of conditions. Keyboard focus follows edits:
 * to a new condition's property, a new group's logic, or the group's "+ Condition" after a removal.
 */
export function ConditionTree({ root, fields, onChange }: TreeProps) {
  const container = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<string | null>(null);
  useEffect(() => {
    const target = pendingFocus.current;
    if (target === null) return;
    pendingFocus.current = null;
    container.current?.querySelector<HTMLElement>(`[data-focus-id="${target}"]`)?.focus();
  });
  const focusAfter = (target: string) => (pendingFocus.current = target);
  return (
    <div className="qb-tree" data-testid="qb-builder" ref={container}>
      <Group
        node={root}
        root={root}
        fields={fields}
        onChange={onChange}
        depth={0}
        focusAfter={focusAfter}
        parentId={null}
      />
    </div>
  );
}

interface NodeProps {
  root: GroupNode;
  fields: QueryablePath[];
  onChange: (root: GroupNode) => void;
  depth: number;
  /** Asks for focus on the element with this `data-focus-id` after the next render. */
  focusAfter: (target: string) => void;
  /** The enclosing group's id (null for the root). */
  parentId: string | null;
}

function Group({ node, ...props }: NodeProps & { node: GroupNode }) {
  const { root, fields, onChange, depth, focusAfter, parentId } = props;
  const firstField = firstConditionField(fields);
  const addCondition = () => {
    const op = firstField ? (operatorsFor(firstField)[0] ?? '$eq') : '$eq';
    const added = condition(firstField?.path ?? '_id', op, defaultValue(firstField, op));
    focusAfter(`property:${added.id}`);
    onChange(appendChild(root, node.id, added));
  };
  const addGroup = () => {
    const added = emptyGroup(node.logic === '$and' ? '$or' : '$and');
    focusAfter(`logic:${added.id}`);
    onChange(appendChild(root, node.id, added));
  };
  const childProps = { ...props, parentId: node.id };
  return (
    <fieldset className={`qb-group qb-group--${node.logic === '$or' ? 'or' : 'and'}`} data-testid="qb-group">
      <legend className="qb-group__legend">
        <select
          className="select"
          aria-label="Combine conditions with"
          data-testid="qb-logic"
          data-focus-id={`logic:${node.id}`}
          value={node.logic}
          onChange={(e) => onChange(updateNode(root, node.id, (n) => ({ ...n, logic: e.target.value }) as GroupNode))}
        >
          <option value="$and">ALL of ($and)</option>
          <option value="$or">ANY of ($or)</option>
        </select>
        {depth > 0 && (
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label="Remove group"
            data-testid="qb-remove-group"
            onClick={() => {
              if (parentId !== null) focusAfter(`add:${parentId}`);
              onChange(removeNode(root, node.id));
            }}
          >
            ×
          </button>
        )}
      </legend>
      {node.children.length === 0 && (
        <p className="qb-empty">{depth === 0 ? 'No conditions: every record matches.' : 'Empty group.'}</p>
      )}
      {node.children.map((child) =>
        child.kind === 'group' ? (
          <Group key={child.id} node={child} {...childProps} depth={depth + 1} />
        ) : (
          <Condition key={child.id} node={child} {...childProps} />
        ),
      )}
      <div className="qb-group__actions">
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid="qb-add-condition"
          data-focus-id={`add:${node.id}`}
          onClick={addCondition}
        >
          + Condition
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid="qb-add-group"
          onClick={addGroup}
        >
          + Group
        </button>
      </div>
    </fieldset>
  );
}

function Condition({ node, root, fields, onChange, focusAfter, parentId }: NodeProps & { node: ConditionNode }) {
  const view = conditionView(node, fields);
  const remove = () => {
    if (parentId !== null) focusAfter(`add:${parentId}`);
    onChange(removeNode(root, node.id));
  };
  if (view.kind === 'json-only') {
    return <JsonOnlyCondition node={node} reason={view.reason} onRemove={remove} />;
  }
  const { field, operators } = view;
  const offered = operatorsFor(field);
  const update = (next: Partial<ConditionNode>) =>
    onChange(updateNode(root, node.id, (n) => ({ ...n, ...next }) as BuilderNode));

  const changePath = (path: string) => {
    const nextField = fields.find((f) => f.path === path);
    const ops = nextField ? operatorsFor(nextField) : [];
    const op: BuilderOperator = ops.includes(node.op) ? node.op : (ops[0] ?? '$eq');
    const sameType = nextField?.type === field?.type && nextField?.container === field?.container;
    update({ path, op, value: sameType && op === node.op ? node.value : defaultValue(nextField, op) });
  };
  const label = `Value for ${node.path}`;

  return (
    <div className="qb-condition" data-testid="qb-condition">
      <div className="qb-condition__row">
        <select
          className="select qb-property"
          aria-label="Property"
          data-testid="qb-property"
          data-focus-id={`property:${node.id}`}
          value={node.path}
          onChange={(e) => changePath(e.target.value)}
        >
          {fields.map((f) => (
            <option key={f.path} value={f.path}>
              {f.path} · {f.container ? 'Document[]' : `${f.type}${f.isArray ? '[]' : ''}`}
            </option>
          ))}
        </select>
        <select
          className="select qb-operator"
          aria-label="Operator"
          data-testid="qb-operator"
          value={node.op}
          onChange={(e) => {
            const op = e.target.value as BuilderOperator;
            update({ op, value: adaptValue(field, node.op, op, node.value) });
          }}
        >
          {operators.map((op) => (
            <option key={op} value={op}>
              {operatorText(op)}
              {offered.includes(op) ? '' : ' (as written in JSON)'}
            </option>
          ))}
        </select>
        <ValueEditor
          key={`${node.op}:${node.path}`}
          field={field}
          op={node.op}
          value={node.value}
          onChange={(value) => update({ value })}
          label={label}
        />
        <button
          type="button"
          className="icon-button icon-button--small"
          aria-label={`Remove condition on ${node.path}`}
          data-testid="qb-remove"
          onClick={remove}
        >
          ×
        </button>
      </div>
    </div>
  );
}

/**
 * A condition the service accepts but the builder cannot show exactly: shown as its JSON, read
 * only, with the reason, so the builder never displays a different query from the one that runs.
 */
function JsonOnlyCondition({ node, reason, onRemove }: { node: ConditionNode; reason: string; onRemove: () => void }) {
  const [op, value] = jsonOperand(node);
  const operand = node.written === 'bare' ? value : { [op]: value };
  return (
    <div className="qb-condition qb-condition--json-only" data-testid="qb-condition-json-only">
      <code className="qb-condition__json">{JSON.stringify({ [node.path]: operand })}</code>
      <span className="qb-hint">Edit this condition in the JSON view: {reason}</span>
      <button
        type="button"
        className="icon-button icon-button--small"
        aria-label={`Remove condition on ${node.path}`}
        data-testid="qb-remove"
        onClick={onRemove}
      >
        ×
      </button>
    </div>
  );
}
