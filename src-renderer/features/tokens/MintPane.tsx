import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { scopeSchemaQuery } from '../../api/schemas';
import { mintToken } from '../../api/tokens';
import { Field, FieldType } from '../../components/Field';
import { FaultMessage } from '../../components/FaultMessage';
import { ACCESS_LEVELS } from './claims';
import { MintedDialog } from './MintedDialog';
import { MintTiming } from './MintTiming';
import {
  checkMintDraft,
  isStoredToken,
  mintFieldOfPath,
  updateMintDraft,
  type ChainCheck,
  type MintDraft,
  type MintField,
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
  const [showMinted, setShowMinted] = useState(false);
  // The clock validAt is judged by (only its ten-year bound); the service judges it again.
  const [openedAt] = useState(() => Date.now());
  // The org's object types: chains naming what the org lacks are refused here as the service refuses them.
  const types = useQuery(scopeSchemaQuery(orgClient)).data;
  const check = checkMintDraft(draft, app?.key ?? '', openedAt, types);
  const change = (patch: Partial<MintDraft>) => onDraft((d) => updateMintDraft(d, patch));

  const mint = useMutation({
    // The token goes to the lab's memory, not into the mutation cache.
    mutationFn: async () => {
      if (!check.request || accountId === undefined) return null;
      onMinted(await mintToken(orgClient, accountId, check.request));
      setShowMinted(true);
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
        if (ready && check.request) mint.mutate();
      }}
    >
      {!ready && (
        <p className="keys-note" data-testid="mint-needs-context">
          Pick an account and an application above to mint a token.
        </p>
      )}
      <Field
        label={
          <>
            Scope chains <FieldType>one per line</FieldType>
          </>
        }
        error={serverField === 'scope' ? serverFault?.reason : undefined}
        invalid={errorOf('scope') !== undefined}
      >
        {(id) => (
          <>
            <textarea
              id={id}
              className="input input--area input--mono"
              rows={3}
              spellCheck={false}
              data-testid="mint-scope"
              value={draft.scopeText}
              aria-invalid={errorOf('scope') ? true : undefined}
              aria-describedby={`${id}-checks`}
              onChange={(e) => change({ scopeText: e.target.value })}
            />
            <ChainList id={`${id}-checks`} chains={check.chains} />
          </>
        )}
      </Field>

      <div className="keys-form">
        <Field
          label={
            <>
              Extra roles <FieldType>role ids</FieldType>
            </>
          }
          error={errorOf('roles')}
        >
          {(id, describedBy) => (
            <input
              id={id}
              className="input input--mono"
              data-testid="mint-roles"
              aria-describedby={describedBy}
              value={draft.rolesText}
              onChange={(e) => change({ rolesText: e.target.value })}
            />
          )}
        </Field>
        <Field
          label={
            <>
              Max uses <FieldType>service/cnt · empty: unlimited</FieldType>
            </>
          }
          error={errorOf('maxUses')}
        >
          {(id, describedBy) => (
            <input
              id={id}
              className="input input--mono"
              inputMode="numeric"
              data-testid="mint-maxUses"
              aria-describedby={describedBy}
              value={draft.maxUses}
              onChange={(e) => change({ maxUses: e.target.value })}
            />
          )}
        </Field>
        <Field
          label={
            <>
              Grant <FieldType>service/gnt</FieldType>
            </>
          }
          error={errorOf('grant')}
        >
          {(id) => (
            <select
              id={id}
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
          )}
        </Field>
      </div>

      <MintTiming draft={draft} app={app} change={change} errorOf={errorOf} />

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
            ? 'This token gets a jti: it is stored, listed under Stored tokens and revocable.'
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
        {!showMinted && token !== '' && mint.isSuccess && (
          <button
            type="button"
            className="button button--ghost"
            data-testid="minted-show"
            onClick={() => setShowMinted(true)}
          >
            Show the minted token
          </button>
        )}
      </div>
      {showMinted && token !== '' && (
        <MintedDialog
          token={token}
          stored={check.request ? isStoredToken(check.request) : false}
          onClose={() => setShowMinted(false)}
          onOpen={onOpen}
        />
      )}
    </form>
  );
}

/** The scope text's chains, each valid or the reason it is not (syntax and the org's schema). */
function ChainList({ id, chains }: { id: string; chains: ChainCheck[] }) {
  return (
    <ul className="lab__chains" id={id} data-testid="mint-chains" aria-live="polite">
      {chains.length === 0 && (
        <li className="keys-note">No chains: the token may do only what its roles’ scopes allow.</li>
      )}
      {chains.map((c) => (
        <li
          key={c.line}
          className={c.ok ? 'lab__chain--ok' : 'lab__chain--bad'}
          data-testid="mint-chain"
          data-ok={c.ok}
        >
          <code>{c.text}</code>
          {!c.ok && ` — ${c.reason ?? 'invalid'}${c.position !== undefined ? ` (character ${c.position + 1})` : ''}`}
        </li>
      ))}
    </ul>
  );
}
