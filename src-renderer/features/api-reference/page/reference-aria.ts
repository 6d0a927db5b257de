/**
 * The renderer's header-name fields are comboboxes (`role="combobox"`) without the state ARIA
 * requires of one (`aria-expanded`), so a screen reader cannot tell whether their suggestion list
 * is open. Until the renderer says so itself, this adds `aria-expanded="false"` to each such field
 * as it appears (their list shows only while typing). Scoped to the renderer's root.
 */
export function completeComboboxes(root: Element): void {
  const complete = () => {
    for (const field of root.querySelectorAll('[role="combobox"]:not([aria-expanded])')) {
      field.setAttribute('aria-expanded', 'false');
    }
  };
  complete();
  new MutationObserver(complete).observe(root, { childList: true, subtree: true });
}
