import { describe, expect, it, vi } from 'vitest';
import { dismissOnEscapeAndOutside, type DetailsLike } from './use-dismissable-details';

type Listener = (event: Event) => void;

/** The window, as far as dismissing needs it: capture listeners called with events made here. */
class FakeRoot implements EventTarget {
  listeners = new Map<string, Set<Listener>>();
  active: unknown = null;

  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (typeof listener === 'function') this.listeners.set(type, (this.listeners.get(type) ?? new Set()).add(listener));
  }

  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (typeof listener === 'function') this.listeners.get(type)?.delete(listener);
  }

  dispatchEvent(): boolean {
    return true;
  }

  count(): number {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }

  /** Fires an event "at" `target` (an inside or outside node) and returns it. */
  fire(type: string, init: { key?: string; target?: unknown } = {}) {
    const event = {
      type,
      key: init.key,
      target: init.target ?? null,
      defaultPrevented: false,
      propagationStopped: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
      stopPropagation() {
        this.propagationStopped = true;
      },
    };
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener(event as unknown as Event);
    return event;
  }
}

const inside = { name: 'a checkbox in the menu' };
const outside = { name: 'a grid row' };
const otherSummary = { closest: (selector: string) => (selector === 'details > summary' ? {} : null) };

function setup(open = true) {
  const summary = { focus: vi.fn() };
  const details: DetailsLike = {
    open,
    contains: (node) => (node as unknown) === inside,
    querySelector: (selector) => (selector === ':scope > summary' ? summary : null),
  };
  const root = new FakeRoot();
  const onClose = vi.fn();
  const detach = dismissOnEscapeAndOutside(
    details,
    { events: root, activeElement: () => root.active as Node },
    onClose,
  );
  return { details, summary, root, onClose, detach };
}

describe('dismissOnEscapeAndOutside', () => {
  it('Escape closes the open menu, stops there and returns focus to the summary', () => {
    const { details, summary, root, onClose } = setup();
    root.active = inside;
    const event = root.fire('keydown', { key: 'Escape' });
    expect(details.open).toBe(false);
    expect(onClose).toHaveBeenCalledOnce();
    expect(summary.focus).toHaveBeenCalledOnce();
    expect(event.defaultPrevented && event.propagationStopped).toBe(true);
  });

  it('leaves the focus where it is when it was not in the menu, and ignores other keys', () => {
    const { details, summary, root } = setup();
    root.fire('keydown', { key: 'Enter' });
    expect(details.open).toBe(true);
    root.active = outside;
    root.fire('keydown', { key: 'Escape' });
    expect(details.open).toBe(false);
    expect(summary.focus).not.toHaveBeenCalled();
  });

  it('does nothing while closed: Escape and clicks reach the page', () => {
    const { root, onClose } = setup(false);
    const key = root.fire('keydown', { key: 'Escape' });
    root.fire('pointerdown', { target: outside });
    const click = root.fire('click', { target: outside });
    expect(key.propagationStopped || click.propagationStopped).toBe(false);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('a press inside keeps it open', () => {
    const { details, root } = setup();
    root.fire('pointerdown', { target: inside });
    expect(details.open).toBe(true);
    expect(root.fire('click', { target: inside }).defaultPrevented).toBe(false);
  });

  it('a press outside closes it, and its click still reaches what was pressed', () => {
    const { details, root, onClose } = setup();
    root.fire('pointerdown', { target: outside });
    expect(details.open).toBe(false);
    expect(onClose).toHaveBeenCalledOnce();
    root.fire('pointerup', { target: outside });
    const click = root.fire('click', { target: outside });
    expect(click.defaultPrevented || click.propagationStopped).toBe(false);
  });

  it("a press on another menu's summary closes this one and lets that one open", () => {
    const { details, root } = setup();
    root.fire('pointerdown', { target: otherSummary });
    expect(details.open).toBe(false);
    expect(root.fire('click', { target: otherSummary }).defaultPrevented).toBe(false);
  });

  it('removes every listener when detached', () => {
    const { root, detach } = setup();
    expect(root.count()).toBe(2);
    detach();
    expect(root.count()).toBe(0);
  });
});
