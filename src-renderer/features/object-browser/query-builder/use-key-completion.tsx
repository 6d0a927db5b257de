import {
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type KeyboardEvent,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import { applyCompletion, keyCompletion } from './completion';

type TextControl = HTMLInputElement | HTMLTextAreaElement;

interface Options<T extends TextControl> {
  text: string;
  onText: (text: string) => void;
  /** The schema's paths the keys may name. */
  paths: readonly string[];
  testId: string;
  /** The control's own ref, when it has one. */
  ref?: RefObject<T | null>;
  /** A one-line input is a combobox (expanded or not); a textarea only points at its list. */
  combobox?: boolean;
}

/**
 * Schema path completion for a JSON text control (issue 44 item 10): the list opens while the
 * cursor is on an object key; ↓/↑ choose, Enter or Tab write the key, Escape closes it. While it
 * is open, Enter picks (it does not run the query).
 */
export function useKeyCompletion<T extends TextControl>({ text, onText, paths, testId, ref, combobox }: Options<T>) {
  const ownRef = useRef<T>(null);
  const control = ref ?? ownRef;
  const [cursor, setCursor] = useState<number | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const pendingCursor = useRef<number | null>(null);
  const listId = useId();

  // After a pick the text is new: put the cursor after the written key.
  useLayoutEffect(() => {
    const at = pendingCursor.current;
    if (at === null || !control.current) return;
    pendingCursor.current = null;
    control.current.setSelectionRange(at, at);
  });

  const completion = cursor === null ? null : keyCompletion(text, cursor, paths);
  const stamp = `${cursor}\u0000${text}`;
  const open = completion !== null && dismissed !== stamp;
  const options = open ? completion.options : [];
  const activeIndex = Math.min(active, Math.max(options.length - 1, 0));

  const pick = (path: string) => {
    if (!completion) return;
    const next = applyCompletion(text, completion, path);
    pendingCursor.current = next.cursor;
    setCursor(next.cursor);
    setActive(0);
    onText(next.text);
  };
  const track = (event: SyntheticEvent<T>) => setCursor(event.currentTarget.selectionStart);

  const props = {
    ref: control,
    onChange: (event: ChangeEvent<T>) => {
      setCursor(event.target.selectionStart);
      setActive(0);
      onText(event.target.value);
    },
    onSelect: track,
    onFocus: track,
    onBlur: () => setCursor(null),
    onKeyDown: (event: KeyboardEvent<T>) => {
      if (!open) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((activeIndex + step + options.length) % options.length);
      } else if (event.key === 'Enter' || event.key === 'Tab') {
        const choice = options[activeIndex];
        if (choice === undefined) return;
        event.preventDefault();
        pick(choice);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setDismissed(stamp);
      }
    },
    'aria-controls': listId,
    'aria-activedescendant': open && options.length > 0 ? `${listId}-${activeIndex}` : undefined,
    'aria-autocomplete': 'list' as const,
    ...(combobox ? { role: 'combobox', 'aria-expanded': open } : {}),
  };

  const list = (
    <ul
      className="completion"
      role="listbox"
      id={listId}
      hidden={!open}
      aria-label="Properties"
      data-testid={`${testId}-completion`}
    >
      {options.map((path, index) => (
        <li
          key={path}
          id={`${listId}-${index}`}
          role="option"
          aria-selected={index === activeIndex}
          className={index === activeIndex ? 'completion__option completion__option--active' : 'completion__option'}
          data-testid="completion-option"
          // Keeps the focus (and the cursor) in the text while the pick is made.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => pick(path)}
        >
          {path}
        </li>
      ))}
    </ul>
  );
  return { props, list, open };
}
