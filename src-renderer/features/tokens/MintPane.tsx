import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { mintToken } from '../../api/tokens';
import { FaultMessage } from '../../components/FaultMessage';
import { CopyButton } from '../../components/CopyButton';
import { ACCESS_LEVELS } from './claims';
import {
  TIME_UNITS,
  checkMintDraft,
  isStoredToken,
  mintExclusions,
  mintFieldOfPath,
  updateMintDraft,
  type MintDraft,
  type MintField,
  type TimeUnit,
} from './mint-form';
import type { TokenPane } from './tokens-route';

interface MintPaneProps {
  orgClient: OrgClient;
  accountId: string | undefined;
  app: ServiceApp | undefined;
  token: string;
  /** The form, held by the lab so switching panes keeps it. */
  draft: MintDraft;
  onDraft: (update: (draft: MintDraft) => MintDraft) => void;
  onMinted: (jwt: string) => void;
  onOpen: (pane: TokenPane) => void;
}

/** Every option of `POST /accounts/:id/tokens`, with live scope-chain checks and the exclusions enforced. */
export function MintPane({ orgClient, accountId, app, token, draft, onDraft, onMinted, onOpen }: MintPaneProps) {
  const queryClient = useQueryClient();
  const [minted, setMinted] = useState(false);
  // The clock validAt is judged by (only its ten-year bound); the service judges it again.
  const [openedAt] = useState(() => Date.now());
  const check = checkMintDraft(draft, app?.key ?? '', openedAt);
  const exclusions = mintExclusions(draft);
  const change = (patch: Partial<MintDraft>) => onDraft((d) => updateMintDraft(d, patch));

  const mint = useMutation({
    // The token goes to the lab's memory, not into the mutation cache.
    mutationFn: async () => {
      if (!check.request || accountId === undefined) return null;
      onMinted(await mintToken(orgClient, accountId, check.request));
      setMinted(true);
      return null;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['org', orgClient.org, 'tokens'] }),
  });
  const serverFault = mint.isError ? faultOf(mint.error) : null;
  const serverField: MintField | undefined = serverFault ? mintFieldOfPath(serverFault.path) : undefined;
  const errorOf = (field: MintField) =>
    check.errors[field] ?? (serverField === field ? (serverFault?.reason ?? serverFault?.message) : undefined);

  const ready = accountId !== undefined && app !== undefined;
  return (
    <form
      className="keys-section"
      data-testid="mint-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (ready && check.request) {
          setMinted(false);
          mint.mutate();
        }
      }}
    >
      {!ready && (
        <p className="keys-note" data-testid="mint-needs-context">
          Pick an account and an application above to mint a token.
        </p>
      )}
      <div className={errorOf('scope') ? 'field field--invalid' : 'field'}>
        <label className="field__label" htmlFor="mint-scope">
          Scope chains <span className="field__type">one per line</span>
        </label>
        <textarea
          id="mint-scope"
          className="input input--area input--mono"
          rows={3}
          spellCheck={false}
          data-testid="mint-scope"
          value={draft.scopeText}
          aria-invalid={errorOf('scope') ? true : undefined}
          aria-describedby="mint-scope-checks"
          onChange={(e) => change({ scopeText: e.target.value })}
        />
        <ul className="lab__chains" id="mint-scope-checks" data-testid="mint-chains" aria-live="polite">
          {check.chains.length === 0 && (
            <li className="keys-note">No chains: the token may do only what its roles’ scopes allow.</li>
          )}
          {check.chains.map((c) => (
            <li
              key={c.line}
              className={c.ok ? 'lab__chain--ok' : 'lab__chain--bad'}
              data-testid="mint-chain"
              data-ok={c.ok}
            >
              <code>{c.text}</code>
              {!c.ok && ` — ${c.reason ?? 'invalid'} (character ${(c.position ?? 0) + 1})`}
            </li>
          ))}
        </ul>
        {serverField === 'scope' && <p className="field__error">{serverFault?.reason}</p>}
      </div>

      <div className="keys-form">
        <div className={errorOf('roles') ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor="mint-roles">
            Extra roles <span className="field__type">role ids</span>
          </label>
          <input
            id="mint-roles"
            className="input input--mono"
            data-testid="mint-roles"
            placeholder="none"
            value={draft.rolesText}
            onChange={(e) => change({ rolesText: e.target.value })}
          />
          {errorOf('roles') && <p className="field__error">{errorOf('roles')}</p>}
        </div>
        <div className={errorOf('maxUses') ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor="mint-maxuses">
            Max uses <span className="field__type">service/cnt</span>
          </label>
          <input
            id="mint-maxuses"
            className="input input--mono"
            inputMode="numeric"
            data-testid="mint-maxUses"
            placeholder="unlimited"
            value={draft.maxUses}
            onChange={(e) => change({ maxUses: e.target.value })}
          />
          {errorOf('maxUses') && <p className="field__error">{errorOf('maxUses')}</p>}
        </div>
        <div className={errorOf('grant') ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor="mint-grant">
            Grant <span className="field__type">service/gnt</span>
          </label>
          <select
            id="mint-grant"
            className="select select--large"
            data-testid="mint-grant"
            value={draft.grant}
            onChange={(e) => change({ grant: e.target.value })}
          >
            <option value="">none</option>
            {[1, 2, 3, 4, 5, 6, 7].map((level) => (
              <option key={level} value={String(level)}>
                {level} — {ACCESS_LEVELS[level]}
              </option>
            ))}
          </select>
        </div>
      </div>

      <fieldset className="keys-section" data-testid="mint-start">
        <legend className="field__label">Starts</legend>
        <Radio
          name="start"
          value="now"
          checked={draft.start === 'now'}
          label="Now"
          onChange={() => change({ start: 'now' })}
        />
        <div className="lab__row">
          <Radio
            name="start"
            value="activatesIn"
            checked={draft.start === 'activatesIn'}
            disabled={!exclusions.delayedStartAllowed}
            label="After (activatesIn)"
            onChange={() => change({ start: 'activatesIn' })}
          />
          <Span
            value={draft.activatesIn}
            unit={draft.activatesUnit}
            disabled={draft.start !== 'activatesIn'}
            testId="mint-activatesIn"
            onValue={(activatesIn) => change({ activatesIn })}
            onUnit={(activatesUnit) => change({ activatesUnit })}
          />
          {draft.start === 'activatesIn' && errorOf('activatesIn') && (
            <span className="field__error">{errorOf('activatesIn')}</span>
          )}
        </div>
        <div className="lab__row">
          <Radio
            name="start"
            value="validAt"
            checked={draft.start === 'validAt'}
            disabled={!exclusions.delayedStartAllowed}
            label="At (validAt)"
            onChange={() => change({ start: 'validAt' })}
          />
          <input
            type="datetime-local"
            className="input"
            style={{ width: 210 }}
            aria-label="Valid from"
            data-testid="mint-validAt"
            disabled={draft.start !== 'validAt'}
            value={draft.validAt}
            onChange={(e) => change({ validAt: e.target.value })}
          />
          {draft.start === 'validAt' && errorOf('validAt') && (
            <span className="field__error">{errorOf('validAt')}</span>
          )}
        </div>
        {!exclusions.delayedStartAllowed && (
          <p className="keys-note">A permanent token is valid at once: activatesIn and validAt do not apply.</p>
        )}
      </fieldset>

      <fieldset className="keys-section" data-testid="mint-expiry">
        <legend className="field__label">Expires</legend>
        <Radio
          name="expiry"
          value="default"
          checked={draft.expiry === 'default'}
          label={`After the app’s lifetime${app ? ` (${app.authDuration} s)` : ''}`}
          onChange={() => change({ expiry: 'default' })}
        />
        <div className="lab__row">
          <Radio
            name="expiry"
            value="expiresIn"
            checked={draft.expiry === 'expiresIn'}
            label="After (expiresIn)"
            onChange={() => change({ expiry: 'expiresIn' })}
          />
          <Span
            value={draft.expiresIn}
            unit={draft.expiresUnit}
            disabled={draft.expiry !== 'expiresIn'}
            testId="mint-expiresIn"
            onValue={(expiresIn) => change({ expiresIn })}
            onUnit={(expiresUnit) => change({ expiresUnit })}
          />
          {draft.expiry === 'expiresIn' && errorOf('expiresIn') && (
            <span className="field__error">{errorOf('expiresIn')}</span>
          )}
        </div>
        <Radio
          name="expiry"
          value="permanent"
          checked={draft.expiry === 'permanent'}
          disabled={!exclusions.permanentAllowed}
          label="Never (permanent, stored and revocable)"
          testId="mint-permanent"
          onChange={() => change({ expiry: 'permanent' })}
        />
        {!exclusions.permanentAllowed && <p className="keys-note">A token with a delayed start cannot be permanent.</p>}
      </fieldset>

      <div className="keys-checks">
        <label className="check">
          <input
            type="checkbox"
            data-testid="mint-skipAcl"
            checked={draft.skipAcl}
            onChange={(e) => change({ skipAcl: e.target.checked })}
          />
          Skip ACL for matching (service/skp)
        </label>
        <label className="check">
          <input
            type="checkbox"
            data-testid="mint-bypassCreateAcl"
            checked={draft.bypassCreateAcl}
            onChange={(e) => change({ bypassCreateAcl: e.target.checked })}
          />
          Bypass create ACL (service/skc)
        </label>
      </div>

      {check.request && (
        <p className="keys-note">
          {isStoredToken(check.request)
            ? 'This token gets a jti: it is stored, listed on the right and revocable.'
            : 'Ephemeral token (no jti): not stored, cannot be revoked on its own.'}
        </p>
      )}
      {serverFault && serverField === undefined && <FaultMessage fault={serverFault} compact />}
      <div className="form__actions">
        <button
          type="submit"
          className="button button--primary"
          data-testid="mint-submit"
          disabled={!ready || !check.request || mint.isPending}
        >
          {mint.isPending ? 'Minting…' : 'Mint token'}
        </button>
      </div>

      {minted && token !== '' && (
        <div className="keys-section" data-testid="minted">
          <div className="keys-section__head">
            <h3 className="keys-section__title">Minted token</h3>
            <span className="lab__row">
              <CopyButton text={token} testId="minted-copy" />
              <button
                type="button"
                className="button button--secondary button--small"
                data-testid="minted-decode"
                onClick={() => onOpen('decode')}
              >
                Decode
              </button>
              <button
                type="button"
                className="button button--secondary button--small"
                data-testid="minted-verify"
                onClick={() => onOpen('verify')}
              >
                Verify
              </button>
            </span>
          </div>
          <textarea
            className="input input--area input--mono"
            readOnly
            rows={4}
            aria-label="Minted token"
            data-testid="minted-token"
            value={token}
          />
          <p className="keys-note">A secret: it authenticates as the account. It is kept in this window only.</p>
        </div>
      )}
    </form>
  );
}

function Radio(props: {
  name: string;
  value: string;
  checked: boolean;
  disabled?: boolean;
  label: string;
  testId?: string;
  onChange: () => void;
}) {
  return (
    <label className={props.disabled ? 'check check--disabled' : 'check'}>
      <input
        type="radio"
        name={props.name}
        value={props.value}
        checked={props.checked}
        disabled={props.disabled}
        data-testid={props.testId ?? `mint-${props.name}-${props.value}`}
        onChange={props.onChange}
      />
      {props.label}
    </label>
  );
}

function Span(props: {
  value: string;
  unit: TimeUnit;
  disabled: boolean;
  testId: string;
  onValue: (value: string) => void;
  onUnit: (unit: TimeUnit) => void;
}) {
  return (
    <>
      <input
        className="input input--mono"
        inputMode="numeric"
        aria-label="Amount"
        data-testid={props.testId}
        disabled={props.disabled}
        value={props.value}
        onChange={(e) => props.onValue(e.target.value)}
      />
      <select
        className="select"
        aria-label="Unit"
        data-testid={`${props.testId}-unit`}
        disabled={props.disabled}
        value={props.unit}
        onChange={(e) => props.onUnit(e.target.value as TimeUnit)}
      >
        {(Object.keys(TIME_UNITS) as TimeUnit[]).map((unit) => (
          <option key={unit} value={unit}>
            {unit === 's' ? 'seconds' : unit === 'min' ? 'minutes' : unit === 'h' ? 'hours' : 'days'}
          </option>
        ))}
      </select>
    </>
  );
}
