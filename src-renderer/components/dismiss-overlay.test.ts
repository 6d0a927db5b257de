import { describe, expect, it, vi } from 'vitest';
import { dismissOverlay } from './dismiss-overlay';

/** A stand-in for a DOM node: only identity matters to `contains`. */
const node = (name: string) => ({ name }) as unknown as Node;

function press(events: EventTarget, type: string, fields: Record<string, unknown>) {
  const event = new Event(type);
  for (const [key, value] of Object.entries(fields)) Object.defineProperty(event, key, { value });
  events.dispatchEvent(event);
}

describe('dismissOverlay', () => {
  const menu = node('menu');
  const link = node('link in the menu');
  const toggle = node('toggle');
  const main = node('main');
  const parts = [
    { contains: (n: Node | null) => n === menu || n === link },
    { contains: (n: Node | null) => n === toggle },
  ];

  it('closes on a press outside the overlay and its opener, not inside them', () => {
    const events = new EventTarget();
    const close = vi.fn();
    dismissOverlay(parts, events, close);
    press(events, 'pointerdown', { target: link });
    press(events, 'pointerdown', { target: toggle });
    expect(close).not.toHaveBeenCalled();
    press(events, 'pointerdown', { target: main });
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape, and stops listening once removed', () => {
    const events = new EventTarget();
    const close = vi.fn();
    const remove = dismissOverlay(parts, events, close);
    press(events, 'keydown', { key: 'Enter' });
    press(events, 'keydown', { key: 'Escape' });
    expect(close).toHaveBeenCalledTimes(1);
    remove();
    press(events, 'keydown', { key: 'Escape' });
    press(events, 'pointerdown', { target: main });
    expect(close).toHaveBeenCalledTimes(1);
  });
});
