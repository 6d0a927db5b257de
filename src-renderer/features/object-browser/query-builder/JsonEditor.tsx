import { useRef } from 'react';
import { lineAndColumn } from './json-locate';
import { useKeyCompletion } from './use-key-completion';
import type { TextProblem } from './validate-text';

interface JsonEditorProps {
  value: string;
  onChange: (text: string) => void;
  problem: TextProblem | null;
  label: string;
  testId: string;
  /** Shown under the editor when the JSON is valid but the builder cannot display it. */
  note?: string | null;
  /** Schema paths offered while the cursor is on a key. */
  paths?: readonly string[];
}

/**
 * A textarea over a mirror that paints the fault's range, so the error shows at the exact spot
 * the shared parser names (character offset for syntax, fault path for rules).
 */
export function JsonEditor({ value, onChange, problem, label, testId, note, paths = [] }: JsonEditorProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const completion = useKeyCompletion({ text: value, onText: onChange, paths, testId, ref: textarea });
  const mirror = useRef<HTMLPreElement>(null);
  const range = problem?.range ?? null;
  const position = range ? lineAndColumn(value, range.start) : null;

  const select = () => {
    if (!range || !textarea.current) return;
    textarea.current.focus();
    textarea.current.setSelectionRange(range.start, Math.max(range.end, range.start + 1));
  };

  return (
    <div className="json-editor">
      <div className={problem ? 'json-editor__frame json-editor__frame--invalid' : 'json-editor__frame'}>
        <pre className="json-editor__mirror" ref={mirror} aria-hidden="true">
          {range ? (
            <>
              {value.slice(0, range.start)}
              <mark className="json-editor__mark" data-testid={`${testId}-mark`}>
                {value.slice(range.start, Math.max(range.end, range.start + 1)) || ' '}
              </mark>
              {value.slice(Math.max(range.end, range.start + 1))}
            </>
          ) : (
            value
          )}
          {'\n'}
        </pre>
        <textarea
          {...completion.props}
          className="json-editor__input"
          aria-label={label}
          aria-invalid={problem ? true : undefined}
          spellCheck={false}
          data-testid={testId}
          value={value}
          placeholder="{}"
          onScroll={(e) => {
            if (mirror.current) {
              mirror.current.scrollTop = e.currentTarget.scrollTop;
              mirror.current.scrollLeft = e.currentTarget.scrollLeft;
            }
          }}
        />
        {completion.list}
      </div>
      {problem && (
        <div className="json-editor__error" role="alert" data-testid={`${testId}-error`}>
          <p>{problem.message}</p>
          <p className="json-editor__where">
            {problem.path && (
              <>
                at <code data-testid={`${testId}-error-path`}>{problem.path}</code>{' '}
              </>
            )}
            {position && (
              <button type="button" className="button button--link" onClick={select}>
                line {position.line}, column {position.column}
                {problem.offset !== undefined && ` (character ${problem.offset})`}
              </button>
            )}{' '}
            <code className="json-editor__errcode">{problem.errCode}</code>
          </p>
        </div>
      )}
      {!problem && note && <p className="qb-hint">{note}</p>}
    </div>
  );
}
