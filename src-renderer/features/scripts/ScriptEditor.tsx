import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { linter } from '@codemirror/lint';
import { javascript } from '@codemirror/lang-javascript';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { EditorState, Prec, StateEffect, StateField, type Extension } from '@codemirror/state';
import {
  Decoration,
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  hoverTooltip,
  keymap,
  lineNumbers,
  type DecorationSet,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { completeScript, hoverInfo } from './script-completion';
import { scriptDiagnostics } from './script-lint';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';

export interface ScriptEditorHandle {
  /** Puts the cursor at the start of `line` (1-based), scrolls to it and focuses the editor. */
  goToLine(line: number): void;
  /** Replaces the whole text (opening a library script or a past run). */
  setText(text: string): void;
}

interface ScriptEditorProps {
  initialText: string;
  /** The line the last fault points at, marked until the text changes; null for none. */
  errorLine: number | null;
  onChange: (text: string) => void;
  /** Ctrl/Cmd+Enter. */
  onRun: () => void;
  /** The org's library exports, offered in `require('…')` and `import … from '…'` (issue 40). */
  libraryExports?: readonly string[];
  ref?: Ref<ScriptEditorHandle>;
}

const setErrorLine = StateEffect.define<number | null>();

const errorLineMark = Decoration.line({ attributes: { class: 'cm-error-line', 'data-testid': 'editor-error-line' } });

/** The marked fault line; editing the text clears it (the line number would no longer be right). */
const errorLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const effect of tr.effects) {
      if (effect.is(setErrorLine)) {
        const line = effect.value;
        if (line === null || line < 1 || line > tr.state.doc.lines) return Decoration.none;
        return Decoration.set([errorLineMark.range(tr.state.doc.line(line).from)]);
      }
    }
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** Colours from the console's CSS variables (styles/scripts.css), so light and dark both follow the theme. */
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.moduleKeyword], color: 'var(--syn-keyword)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--syn-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--syn-number)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--syn-comment)', fontStyle: 'italic' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: 'var(--syn-function)' },
  { tag: [tags.propertyName], color: 'var(--syn-property)' },
  { tag: [tags.definition(tags.variableName)], color: 'var(--syn-definition)' },
  { tag: [tags.invalid], color: 'var(--danger)' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: 'var(--text-md)', backgroundColor: 'var(--surface)', color: 'var(--text)' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '.cm-gutters': {
    backgroundColor: 'var(--surface-sunken)',
    color: 'var(--text-faint)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'var(--surface-hover)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--surface-hover)', color: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'var(--accent-soft) !important',
  },
  '.cm-error-line': {
    backgroundColor: 'var(--danger-soft)',
    boxShadow: 'inset 3px 0 0 var(--danger)',
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border)' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--accent-soft)', color: 'var(--text)' },
  '.cm-completionDetail': { color: 'var(--text-faint)' },
  '.cm-script-hover': { padding: '4px 8px', maxWidth: '28rem', fontSize: 'var(--text-sm, 0.85rem)' },
});

/** CodeMirror 6 with JavaScript syntax, line numbers, a marked fault line and Ctrl/Cmd+Enter to run. */
function completeAt(context: CompletionContext, libraryExports: readonly string[]): CompletionResult | null {
  const line = context.state.doc.lineAt(context.pos);
  const answer = completeScript(line.text.slice(0, context.pos - line.from), context.pos, libraryExports);
  if (!answer || (answer.from === context.pos && !context.explicit && answer.options[0]?.type !== 'module'))
    return null;
  return { from: answer.from, options: answer.options };
}

export function ScriptEditor({ initialText, errorLine, onChange, onRun, libraryExports, ref }: ScriptEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The latest callbacks, read by the editor's listeners (created once).
  const callbacks = useRef({ onChange, onRun, libraryExports: libraryExports ?? [] });
  useEffect(() => {
    callbacks.current = { onChange, onRun, libraryExports: libraryExports ?? [] };
  });

  useEffect(() => {
    if (!host.current) return;
    const extensions: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightActiveLine(),
      drawSelection(),
      history(),
      indentOnInput(),
      bracketMatching(),
      javascript(),
      // The script API's modules, globals and members (script-completion.ts).
      autocompletion({ override: [(context) => completeAt(context, callbacks.current.libraryExports)] }),
      // Syntax errors and names that are neither declared nor globals of scripts (script-lint.ts).
      linter((v) => scriptDiagnostics(v.state.doc.toString()), { delay: 400 }),
      hoverTooltip((v, pos) => {
        const line = v.state.doc.lineAt(pos);
        const info = hoverInfo(line.text, pos - line.from);
        if (!info) return null;
        return {
          pos: line.from + info.from,
          end: line.from + info.to,
          create: () => {
            const dom = document.createElement('div');
            dom.className = 'cm-script-hover';
            dom.textContent = info.text;
            return { dom };
          },
        };
      }),
      syntaxHighlighting(highlight),
      errorLineField,
      theme,
      Prec.highest(
        keymap.of([
          {
            key: 'Mod-Enter',
            run: () => {
              callbacks.current.onRun();
              return true;
            },
          },
        ]),
      ),
      keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
      EditorView.contentAttributes.of({ 'aria-label': 'Script', 'data-testid': 'script-editor-content' }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
      }),
    ];
    const created = new EditorView({
      state: EditorState.create({ doc: initialText, extensions }),
      parent: host.current,
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // The editor owns its text after creation; later text comes through setText.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: setErrorLine.of(errorLine) });
  }, [errorLine]);

  useImperativeHandle(
    ref,
    () => ({
      goToLine(line: number) {
        const v = view.current;
        if (!v) return;
        const target = v.state.doc.line(Math.min(Math.max(1, line), v.state.doc.lines));
        v.dispatch({
          selection: { anchor: target.from },
          effects: [EditorView.scrollIntoView(target.from, { y: 'center' }), setErrorLine.of(line)],
        });
        v.focus();
      },
      setText(text: string) {
        const v = view.current;
        if (!v) return;
        v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
      },
    }),
    [],
  );

  return <div className="script-editor" ref={host} data-testid="script-editor" />;
}
