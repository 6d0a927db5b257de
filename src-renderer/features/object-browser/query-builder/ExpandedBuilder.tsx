import type { GroupNode } from './builder-state';
import { ConditionTree } from './ConditionTree';
import { JsonEditor } from './JsonEditor';
import type { QueryablePath } from './operators';
import { SortBuilder, type SortKey } from './SortAndPaths';
import type { TextProblem } from './validate-text';

interface ExpandedBuilderProps {
  fields: QueryablePath[];
  sortable: string[];
  root: GroupNode;
  /** Why the builder cannot show the where text, or null when it shows the tree. */
  builderNote: string | null;
  onTreeChange: (root: GroupNode) => void;
  /** Paths the JSON view completes. */
  fieldPaths: readonly string[];
  whereText: string;
  whereProblem: TextProblem | null;
  onWhereText: (text: string) => void;
  sortKeys: SortKey[];
  sortProblem: TextProblem | null;
  onSortText: (text: string) => void;
  limitText: string;
  limitValid: boolean;
  onLimitText: (text: string) => void;
}

/** The opened builder: where as a condition tree beside its JSON, then sort and limit. */
export function ExpandedBuilder(props: ExpandedBuilderProps) {
  const { fields, sortable, root, builderNote, onTreeChange, fieldPaths, whereText, whereProblem, onWhereText } = props;
  const { sortKeys, sortProblem, onSortText, limitText, limitValid, onLimitText } = props;
  return (
    <div className="query-panel__expanded" id="query-builder-panel">
      <div className="query-panel__where">
        <div className="query-panel__pane">
          <h2 className="pane-title">where · builder</h2>
          {builderNote === null ? (
            <ConditionTree root={root} fields={fields} onChange={onTreeChange} />
          ) : (
            <p className="qb-empty" data-testid="qb-builder-note" role="status">
              {builderNote}
            </p>
          )}
        </div>
        <div className="query-panel__pane">
          <h2 className="pane-title">where · JSON</h2>
          <JsonEditor
            value={whereText}
            onChange={onWhereText}
            problem={whereProblem}
            label="where as JSON"
            testId="qb-json"
            paths={fieldPaths}
          />
        </div>
      </div>
      <div className="query-panel__options">
        <span className="option-label">sort</span>
        <SortBuilder
          keys={sortKeys}
          sortable={sortable}
          onChange={(keys) =>
            onSortText(keys.length > 0 ? JSON.stringify(Object.fromEntries(keys.map((k) => [k.path, k.dir]))) : '')
          }
        />
        {sortProblem && (
          <span className="qb-inline-error" data-testid="qb-sort-error">
            {sortProblem.message}
          </span>
        )}
        <span className="query-panel__spacer" />
        <label className="query-bar__field query-bar__field--limit">
          <span className="option-label">limit</span>
          <input
            className={
              limitValid ? 'input input--mono input--narrow' : 'input input--mono input--narrow input--invalid'
            }
            data-testid="qb-limit"
            inputMode="numeric"
            aria-invalid={!limitValid || undefined}
            value={limitText}
            onChange={(e) => onLimitText(e.target.value)}
          />
        </label>
      </div>
    </div>
  );
}
