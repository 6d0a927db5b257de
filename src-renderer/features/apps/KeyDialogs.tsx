import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FaultBody } from '../../../src-shared/faults';
import { faultOf } from '../../api/api-error';
import { rotationPreviewQuery, TOKEN_ALGS, type ServiceApp, type TokenAlg } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import { Dialog } from '../../components/Dialog';
import { CopyButton } from '../../components/CopyButton';
import { Field } from '../../components/Field';

/**
 * Shows a secret once. The secret lives only in this dialog's props (held by the parent's state
 * until close): never in the URL, history, storage or the query cache.
 */
export function SecretRevealDialog({ label, secret, onClose }: { label: string; secret: string; onClose: () => void }) {
  return (
    <Dialog
      title={`Secret of ${label}`}
      onClose={onClose}
      testId="secret-dialog"
      guard="Close without the secret? It cannot be shown again: you would have to rotate it."
    >
      <p className="keys-warn" role="note">
        <strong>You won’t see this again.</strong> Copy the secret now and keep it somewhere safe: the service stores it
        encrypted and only ever shows its last four characters after this.
      </p>
      <div className="keys-secret">
        <code data-testid="secret-value">{secret}</code>
        <CopyButton text={secret} testId="secret-copy" />
      </div>
      <div className="keys-dialog__actions">
        <button type="button" className="button button--primary" data-testid="secret-done" onClick={onClose}>
          I have copied it
        </button>
      </div>
    </Dialog>
  );
}

function PreviewFacts({
  orgClient,
  app,
  operation,
}: {
  orgClient: OrgClient;
  app: ServiceApp;
  operation: 'secret' | 'rsa';
}) {
  const preview = useQuery(rotationPreviewQuery(orgClient, app.key));
  if (preview.isPending) {
    return (
      <p className="status-line" role="status">
        <span className="spinner" aria-hidden="true" /> Counting what this invalidates…
      </p>
    );
  }
  if (preview.isError)
    return <FaultMessage fault={faultOf(preview.error)} onRetry={() => void preview.refetch()} compact />;
  // The service's own numbers for this operation (issue #13 item 20), not a guess made here.
  const effect = preview.data[operation];
  const ephemeral = operation === 'rsa' && preview.data.rsa.ephemeralTokens;
  return (
    <dl className="keys-facts" data-testid="rotation-preview">
      <dt>Stored tokens that stop working</dt>
      <dd data-testid="preview-tokens">{effect.tokens}</dd>
      {ephemeral && (
        <>
          <dt>Ephemeral tokens</dt>
          <dd>every one stops working (they are not stored, so not counted)</dd>
        </>
      )}
      <dt>Sessions that end</dt>
      <dd data-testid="preview-sessions">{effect.sessions}</dd>
      <dt>Signed requests</dt>
      <dd data-testid="preview-signatures">
        {effect.signedRequestsRefused ? 'signatures made with the current secret stop verifying' : 'not affected'}
      </dd>
    </dl>
  );
}

interface ConfirmProps {
  orgClient: OrgClient;
  app: ServiceApp;
  busy: boolean;
  fault: FaultBody | null;
  onCancel: () => void;
}

/** Rotating a signing secret: what it breaks, then a plain confirmation. */
export function RotateSecretDialog(props: ConfirmProps & { onConfirm: () => void }) {
  return (
    <Dialog title={`Rotate the secret of ${props.app.label}?`} onClose={props.onCancel} testId="rotate-secret-dialog">
      <p>
        A new secret replaces the current one at once. Every back end that signs requests with the old secret is refused
        until it gets the new one.
      </p>
      <PreviewFacts orgClient={props.orgClient} app={props.app} operation="secret" />
      {props.fault && <FaultMessage fault={props.fault} compact />}
      <div className="keys-dialog__actions">
        <button type="button" className="button button--ghost" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--danger"
          data-testid="rotate-secret-confirm"
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {props.busy ? 'Rotating…' : 'Rotate secret'}
        </button>
      </div>
    </Dialog>
  );
}

/**
 * Regenerating the RSA pair invalidates every token of the app (spec, docs/orgs-and-apps.md#applications): the
 * dialog shows the counts and asks for the app's label, typed, before it is allowed.
 */
export function RegenerateRsaDialog(props: ConfirmProps & { onConfirm: (alg: TokenAlg) => void }) {
  const [typed, setTyped] = useState('');
  const [alg, setAlg] = useState<TokenAlg>(props.app.alg);
  const matches = typed.trim() === props.app.label;
  return (
    <Dialog title={`Regenerate the RSA key pair of ${props.app.label}?`} onClose={props.onCancel} testId="rsa-dialog">
      <p className="keys-bad">
        <strong>Every token this app has issued stops working</strong> — ephemeral ones too, which cannot be revoked any
        other way. Clients must get new tokens. The old public key disappears from /auth/certs at once.
      </p>
      <PreviewFacts orgClient={props.orgClient} app={props.app} operation="rsa" />
      <Field label="Algorithm of the new pair">
        <select
          className="select select--large"
          data-testid="rsa-alg"
          value={alg}
          onChange={(e) => setAlg(e.target.value as TokenAlg)}
        >
          {TOKEN_ALGS.map((a) => (
            <option key={a} value={a}>
              {a}
              {a === 'PS512' ? ' (RSA-PSS, default)' : ' (PKCS#1 v1.5)'}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label={
          <>
            Type <code>{props.app.label}</code> to confirm
          </>
        }
      >
        <input
          className="input"
          data-testid="rsa-confirm-text"
          value={typed}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setTyped(e.target.value)}
        />
      </Field>
      {props.fault && <FaultMessage fault={props.fault} compact />}
      <div className="keys-dialog__actions">
        <button type="button" className="button button--ghost" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--danger"
          data-testid="rsa-confirm"
          disabled={!matches || props.busy}
          onClick={() => props.onConfirm(alg)}
        >
          {props.busy ? 'Regenerating…' : 'Regenerate key pair'}
        </button>
      </div>
    </Dialog>
  );
}
