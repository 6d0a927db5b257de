import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import type { TokenPane } from './tokens-route';

/**
 * A just-minted token, in a dialog where the user is looking (issue #18 item 11). A stored token
 * cannot be fetched again, so Escape or a click outside asks first (item 2). Closing keeps the
 * token in the lab's memory for Decode and Verify.
 */
export function MintedDialog({
  token,
  stored,
  onClose,
  onOpen,
}: {
  token: string;
  stored: boolean;
  onClose: () => void;
  onOpen: (pane: TokenPane) => void;
}) {
  return (
    <Dialog
      title="Minted token"
      onClose={onClose}
      testId="minted"
      guard="Close without copying the token? The service never shows it again; you would have to mint another."
    >
      <p className="keys-warn" role="note">
        <strong>A secret:</strong> it authenticates as the account. Copy it now; it is kept in this window only
        {stored ? ' and can be revoked from the stored-token list.' : '.'}
      </p>
      <textarea
        className="input input--area input--mono lab__token"
        readOnly
        rows={5}
        aria-label="Minted token"
        data-testid="minted-token"
        value={token}
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="keys-dialog__actions">
        <CopyButton text={token} testId="minted-copy" />
        <button
          type="button"
          className="button button--secondary"
          data-testid="minted-decode"
          onClick={() => {
            onClose();
            onOpen('decode');
          }}
        >
          Decode
        </button>
        <button
          type="button"
          className="button button--secondary"
          data-testid="minted-verify"
          onClick={() => {
            onClose();
            onOpen('verify');
          }}
        >
          Verify
        </button>
        <button type="button" className="button button--primary" data-testid="minted-done" onClick={onClose}>
          I have copied it
        </button>
      </div>
    </Dialog>
  );
}
