import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId: string;
}

/**
 * A modal on the native <dialog>: focus moves in and is trapped, Escape closes it, and focus goes
 * back to where it was. Mounted means open; the parent unmounts it to close (which clears any
 * state it held, such as a revealed secret).
 */
export function Dialog({ title, onClose, children, testId }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="keys-dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="keys-dialog__body">
        <h2 className="keys-dialog__title" id={titleId}>
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}

/** Copies text to the clipboard; says so, or says to copy by hand where the clipboard is refused. */
export function CopyButton({ text, label = 'Copy', testId }: { text: string; label?: string; testId: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="button button--secondary button--small"
      data-testid={testId}
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        );
      }}
    >
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : label}</span>
    </button>
  );
}
