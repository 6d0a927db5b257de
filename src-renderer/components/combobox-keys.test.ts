import { describe, expect, it } from 'vitest';
import { CLOSED, clampActive, comboboxKey } from './combobox-keys';

describe('combobox keyboard (APG combobox pattern)', () => {
  it('opens with the arrows on the first or last option', () => {
    expect(comboboxKey('ArrowDown', CLOSED, 3)).toEqual({ state: { open: true, active: 0 }, handled: true });
    expect(comboboxKey('ArrowUp', CLOSED, 3)).toEqual({ state: { open: true, active: 2 }, handled: true });
  });

  it('moves through the options and wraps at both ends', () => {
    expect(comboboxKey('ArrowDown', { open: true, active: 0 }, 3).state.active).toBe(1);
    expect(comboboxKey('ArrowDown', { open: true, active: 2 }, 3).state.active).toBe(0);
    expect(comboboxKey('ArrowUp', { open: true, active: 0 }, 3).state.active).toBe(2);
    expect(comboboxKey('ArrowUp', { open: true, active: 1 }, 3).state.active).toBe(0);
  });

  it('opens an empty list without an active option', () => {
    expect(comboboxKey('ArrowDown', CLOSED, 0)).toEqual({ state: { open: true, active: -1 }, handled: true });
  });

  it('Enter picks the active option and closes; without one it is still kept from the form', () => {
    expect(comboboxKey('Enter', { open: true, active: 1 }, 3)).toEqual({ state: CLOSED, pick: 1, handled: true });
    expect(comboboxKey('Enter', { open: true, active: -1 }, 3)).toEqual({
      state: { open: true, active: -1 },
      handled: true,
    });
    // Closed: Enter is the form's (submit), not the combobox's.
    expect(comboboxKey('Enter', CLOSED, 3).handled).toBe(false);
    // An active index past a shrunk list picks nothing.
    expect(comboboxKey('Enter', { open: true, active: 5 }, 3).pick).toBeUndefined();
  });

  it('Escape closes an open list first, then reverts the text', () => {
    expect(comboboxKey('Escape', { open: true, active: 1 }, 3)).toEqual({ state: CLOSED, handled: true });
    expect(comboboxKey('Escape', CLOSED, 3)).toEqual({ state: CLOSED, revert: true, handled: true });
  });

  it('Tab closes without being taken from the browser; other keys are the text box’s', () => {
    expect(comboboxKey('Tab', { open: true, active: 0 }, 3)).toEqual({ state: CLOSED, handled: false });
    expect(comboboxKey('a', { open: true, active: 0 }, 3)).toEqual({
      state: { open: true, active: 0 },
      handled: false,
    });
  });

  it('keeps the active option on a list that shrank', () => {
    expect(clampActive({ open: true, active: 6 }, 2)).toEqual({ open: true, active: 1 });
    expect(clampActive({ open: true, active: 6 }, 0)).toEqual({ open: true, active: -1 });
    expect(clampActive({ open: true, active: 1 }, 2)).toEqual({ open: true, active: 1 });
  });
});
