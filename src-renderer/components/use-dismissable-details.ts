import { useEffect, useRef, type RefObject } from 'react';

/** The parts of a `<details>` menu that dismissing needs (a real element in the console). */
export interface DetailsLike {
  open: boolean;
  contains(node: Node | null): boolean;
  querySelector(selectors: string): { focus(): void } | null;
}

/** Where the listeners go (the window in the console) and what has the focus. */
export interface DismissRoot {
  events: EventTarget;
  activeElement: () => Node | null;
}

/**
 * Makes an open `<details>` menu close the way menus do:
 * - Escape closes it and gives the keyboard back to its summary (when the focus was in the menu);
 *   the key stops there, so a drawer behind the menu stays open;
 * - a pointer press outside closes it. The click goes on to what was pressed (a link, a row,
 *   another menu's button): swallowing it made the first click after any open menu do nothing,
 *   a sidebar link included.
 * Returns the function that removes the listeners.
 */
export function dismissOnEscapeAndOutside(details: DetailsLike, root: DismissRoot, onClose?: () => void): () => void {
  const close = () => {
    details.open = false;
    onClose?.();
  };

  const onKey = (event: Event) => {
    if ((event as KeyboardEvent).key !== 'Escape' || !details.open || event.defaultPrevented) return;
    const focusInside = details.contains(root.activeElement());
    close();
    event.preventDefault();
    event.stopPropagation();
    if (focusInside) details.querySelector(':scope > summary')?.focus();
  };

  const onPointerDown = (event: Event) => {
    if (details.open && !details.contains(event.target as Node | null)) close();
  };

  root.events.addEventListener('keydown', onKey, true);
  root.events.addEventListener('pointerdown', onPointerDown, true);
  return () => {
    root.events.removeEventListener('keydown', onKey, true);
    root.events.removeEventListener('pointerdown', onPointerDown, true);
  };
}

/** The whole page: events reach the window's capture listeners before any element's. */
const windowRoot = (): DismissRoot => ({ events: window, activeElement: () => document.activeElement });

/**
 * For a `<details>` used as a dropdown menu: Escape and a press outside close it (see
 * `dismissOnEscapeAndOutside`), and so does a change of `closeWhenChanged` (e.g. the collection).
 * `onClose` runs when one of these closes it (not when its own summary does).
 */
export function useDismissableDetails(
  closeWhenChanged?: unknown,
  onClose?: () => void,
): RefObject<HTMLDetailsElement | null> {
  const ref = useRef<HTMLDetailsElement>(null);
  const latestOnClose = useRef(onClose);
  useEffect(() => {
    latestOnClose.current = onClose;
  });

  useEffect(() => {
    const details = ref.current;
    if (!details) return undefined;
    return dismissOnEscapeAndOutside(details, windowRoot(), () => latestOnClose.current?.());
  }, []);

  const last = useRef(closeWhenChanged);
  useEffect(() => {
    if (Object.is(last.current, closeWhenChanged)) return;
    last.current = closeWhenChanged;
    const details = ref.current;
    if (details?.open) {
      details.open = false;
      latestOnClose.current?.();
    }
  }, [closeWhenChanged]);

  return ref;
}
