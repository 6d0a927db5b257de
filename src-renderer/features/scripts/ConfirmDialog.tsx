import { Dialog } from '../../components/Dialog';

/** A question asked before something typed is thrown away. */
export interface Confirmation {
  title: string;
  message: string;
  /** The button that goes ahead ("Discard changes"). */
  confirm: string;
  onConfirm: () => void;
}

/** Asks once; "Keep editing" (or Escape) leaves everything as it was. */
export function ConfirmDialog({ ask, onClose }: { ask: Confirmation; onClose: () => void }) {
  return (
    <Dialog title={ask.title} onClose={onClose} testId="confirm-dialog">
      <p>{ask.message}</p>
      <div className="keys-dialog__actions">
        <button type="button" className="button button--secondary" data-testid="confirm-cancel" onClick={onClose}>
          Keep editing
        </button>
        <button
          type="button"
          className="button button--danger"
          data-testid="confirm-ok"
          onClick={() => {
            onClose();
            ask.onConfirm();
          }}
        >
          {ask.confirm}
        </button>
      </div>
    </Dialog>
  );
}
