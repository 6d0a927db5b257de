/**
 * The keyboard of an editable combobox with a list popup (WAI-ARIA APG "combobox" pattern, list
 * autocomplete without automatic selection), as a pure function so it is unit-tested:
 *   - Down arrow opens the list on its first option, or moves to the next one (wrapping);
 *   - Up arrow opens it on its last option, or moves to the previous one (wrapping);
 *   - Enter picks the active option (and is kept from submitting the form while the list is open);
 *   - Escape closes an open list, or, when it is closed, reverts the text;
 *   - Tab closes the list and moves on as usual.
 * Focus stays in the text box throughout; the active option is named by `aria-activedescendant`.
 */

export interface ComboboxState {
  open: boolean;
  /** The active option's index, or -1 for none. */
  active: number;
}

export const CLOSED: ComboboxState = { open: false, active: -1 };

export interface ComboboxStep {
  state: ComboboxState;
  /** The option picked by this key. */
  pick?: number;
  /** Escape on a closed list: restore the text to the current value. */
  revert?: boolean;
  /** Whether the key was the combobox's (the caller then prevents its default action). */
  handled: boolean;
}

export function comboboxKey(key: string, state: ComboboxState, count: number): ComboboxStep {
  switch (key) {
    case 'ArrowDown':
      if (count === 0) return { state: { open: true, active: -1 }, handled: true };
      return {
        state: { open: true, active: state.open && state.active >= 0 ? (state.active + 1) % count : 0 },
        handled: true,
      };
    case 'ArrowUp':
      if (count === 0) return { state: { open: true, active: -1 }, handled: true };
      return {
        state: {
          open: true,
          active: state.open && state.active >= 0 ? (state.active - 1 + count) % count : count - 1,
        },
        handled: true,
      };
    case 'Enter':
      if (!state.open) return { state, handled: false };
      if (state.active >= 0 && state.active < count) return { state: CLOSED, pick: state.active, handled: true };
      // An open list with nothing active: Enter must not submit the surrounding form by surprise.
      return { state, handled: true };
    case 'Escape':
      return state.open ? { state: CLOSED, handled: true } : { state: CLOSED, revert: true, handled: true };
    case 'Tab':
      return { state: CLOSED, handled: false };
    default:
      return { state, handled: false };
  }
}

/** After the options change (a new search answered), the active index stays on the list. */
export function clampActive(state: ComboboxState, count: number): ComboboxState {
  if (state.active < count) return state;
  return { ...state, active: count === 0 ? -1 : count - 1 };
}
