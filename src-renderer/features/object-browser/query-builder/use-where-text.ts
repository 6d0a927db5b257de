import { useState } from 'react';
import { emptyGroup, fromWhere, toWhere, type GroupNode } from './builder-state';
import { initialNote, initialTree, oneLine, pretty } from './query-text';

/**
 * The where condition in its three editors kept in step: the bar's one line, the JSON view's
 * indented text and the builder's tree. An edit in one updates the others when they can show it.
 */
export function useWhereText(initialWhere: string | undefined) {
  const [whereText, setWhereText] = useState(() => pretty(initialWhere));
  // The bar's one-line text; follows the builder and the JSON view, kept as typed while typing.
  const [barText, setBarText] = useState(() => oneLine(initialWhere));
  const [root, setRoot] = useState<GroupNode>(() => initialTree(initialWhere));
  const [builderNote, setBuilderNote] = useState<string | null>(() => initialNote(initialWhere));

  /** New where text from the JSON view or the bar: the builder follows when it can show it. */
  const onWhereText = (text: string, from: 'json' | 'bar') => {
    if (from === 'bar') setBarText(text);
    if (text.trim() === '') {
      setWhereText('');
      if (from === 'json') setBarText('');
      setRoot(emptyGroup());
      setBuilderNote(null);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      setWhereText(text);
      if (from === 'json') setBarText(text.replace(/\s*\n\s*/g, ' '));
      // The JSON view marks the syntax error; the builder shows no stale tree meanwhile.
      setBuilderNote('The builder shows the query again once the JSON parses.');
      return;
    }
    setWhereText(from === 'bar' ? JSON.stringify(parsed, null, 2) : text);
    if (from === 'json') setBarText(JSON.stringify(parsed));
    const result = fromWhere(parsed);
    if (result.ok) {
      setRoot(result.root);
      setBuilderNote(null);
    } else {
      setBuilderNote(`The builder can't show this query: ${result.reason}`);
    }
  };

  const onTreeChange = (next: GroupNode) => {
    setRoot(next);
    const where = toWhere(next);
    const empty = Object.keys(where).length === 0;
    setWhereText(empty ? '' : JSON.stringify(where, null, 2));
    setBarText(empty ? '' : JSON.stringify(where));
    setBuilderNote(null);
  };

  return { whereText, barText, root, builderNote, onWhereText, onTreeChange };
}
