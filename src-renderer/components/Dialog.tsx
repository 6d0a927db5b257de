import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId: string;
  /**
   * Something shown once (a secret): Escape or a click outside the dialog then asks before it
   * closes, so one stray key press cannot lose it (issue #18 item 2). The text says what is lost.
   */
  guard?: string;
}

/**
 * A modal on the native <dialog>: focus moves in and is trapped, Escape (or a click on the
 * backdrop) closes it, and focus goes back to where it was. Mounted means open; the parent
 * unmounts it to close (which clears any state it held, such as a revealed secret).
 */
export function Dialog({ title, onClose, children, testId, guard }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [asking, setAsking] = useState(false);
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
  const dismiss = () => (guard ? setAsking(true) : onClose());
  return (
    <dialog
      ref={ref}
      className="keys-dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        dismiss();
      }}
      // The body fills the dialog, so a click whose target is the dialog itself hit the backdrop.
      onClick={(event) => {
        if (event.target === event.currentTarget) dismiss();
      }}
    >
      <div className="keys-dialog__body">
        <h2 className="keys-dialog__title" id={titleId}>
          {title}
        </h2>
        {children}
        {asking && guard && <CloseGuard text={guard} onStay={() => setAsking(false)} onLeave={onClose} />}
      </div>
    </dialog>
  );
}

function CloseGuard({ text, onStay, onLeave }: { text: string; onStay: () => void; onLeave: () => void }) {
  return (
    <div className="keys-warn dialog-guard" role="alertdialog" aria-label="Close?" data-testid="dialog-guard">
      <p>{text}</p>
      <div className="keys-dialog__actions">
        <button type="button" className="button button--secondary" data-testid="dialog-guard-stay" onClick={onStay}>
          Keep it open
        </button>
        <button type="button" className="button button--primary" data-testid="dialog-guard-leave" onClick={onLeave}>
          I have copied it
        </button>
      </div>
    </div>
  );
}
