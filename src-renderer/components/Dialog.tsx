import { useEffect, useId, useRef, type ReactNode } from 'react';

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
