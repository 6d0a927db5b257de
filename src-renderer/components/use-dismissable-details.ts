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

/** Whether the node is in a `<details>` summary (a press on another menu's button opens that menu). */
function inSummary(node: unknown): boolean {
  const element = node as { closest?: (selector: string) => unknown } | null;
  return typeof element?.closest === 'function' && element.closest('details > summary') !== null;
}

/**
 * Makes an open `<details>` menu close the way menus do:
 * - Escape closes it and gives the keyboard back to its summary (when the focus was in the menu);
 *   the key stops there, so a drawer behind the menu stays open;
 * - a pointer press outside closes it, and the click that press makes does not also activate what
 *   is under it (a grid row, a button), unless it lands on another menu's summary.
 * Returns the function that removes the listeners.
 */
export function dismissOnEscapeAndOutside(details: DetailsLike, root: DismissRoot, onClose?: () => void): () => void {
  let swallow: (() => void) | null = null;
  const stopSwallowing = () => {
    swallow?.();
    swallow = null;
  };
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
    stopSwallowing();
    if (!details.open || details.contains(event.target as Node | null)) return;
    close();
    if (inSummary(event.target)) return;
    const onClick = (click: Event) => {
      click.preventDefault();
      click.stopPropagation();
      stopSwallowing();
    };
    // The click comes right after pointerup, in the same task: let it pass through this listener,
    // then stop listening (a press that ends elsewhere makes no click at all).
    const onPointerUp = () => setTimeout(stopSwallowing, 0);
    root.events.addEventListener('click', onClick, true);
    root.events.addEventListener('pointerup', onPointerUp, true);
    root.events.addEventListener('pointercancel', onPointerUp, true);
    swallow = () => {
      root.events.removeEventListener('click', onClick, true);
      root.events.removeEventListener('pointerup', onPointerUp, true);
      root.events.removeEventListener('pointercancel', onPointerUp, true);
    };
  };

  root.events.addEventListener('keydown', onKey, true);
  root.events.addEventListener('pointerdown', onPointerDown, true);
  return () => {
    stopSwallowing();
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
