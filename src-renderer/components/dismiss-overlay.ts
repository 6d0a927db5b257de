import { useEffect, type RefObject } from 'react';

/** What dismissing needs of the overlay and its opener: whether a pressed node is theirs. */
export interface Inside {
  contains(node: Node | null): boolean;
}

/**
 * Closes an open overlay (the narrow window's section menu) the way overlays close: a pointer
 * press outside it and its opener, or Escape. The press goes on to what was pressed. Returns the
 * function that removes the listeners.
 */
export function dismissOverlay(parts: readonly (Inside | null)[], events: EventTarget, close: () => void): () => void {
  const onPointerDown = (event: Event) => {
    const target = event.target as Node | null;
    if (!parts.some((part) => part?.contains(target))) close();
  };
  const onKey = (event: Event) => {
    if ((event as KeyboardEvent).key === 'Escape' && !event.defaultPrevented) close();
  };
  events.addEventListener('pointerdown', onPointerDown, { capture: true });
  events.addEventListener('keydown', onKey);
  return () => {
    events.removeEventListener('pointerdown', onPointerDown, { capture: true });
    events.removeEventListener('keydown', onKey);
  };
}

/** `dismissOverlay` on the window while `open`. */
export function useDismissOverlay(
  open: boolean,
  parts: readonly RefObject<HTMLElement | null>[],
  close: () => void,
): void {
  useEffect(() => {
    if (!open) return undefined;
    return dismissOverlay(
      parts.map((ref) => ref.current),
      window,
      close,
    );
    // The refs are stable objects; their elements are read when the overlay opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, close]);
}
