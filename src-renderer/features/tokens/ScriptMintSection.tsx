import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, consoleFault, faultOf } from '../../api/api-error';
import type { ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { runScript } from '../../api/scripts';
import { FaultMessage } from '../../components/FaultMessage';
import { DecodePane } from './DecodePane';
import { checkMintDraft, type MintDraft } from './mint-form';
import { MINT_SCRIPT, scriptMintArguments, tokenOfRunValue } from './script-mint';

interface ScriptMintSectionProps {
  orgClient: OrgClient;
  accountId: string | undefined;
  app: ServiceApp | undefined;
  draft: MintDraft;
  token: string;
  onMinted: (jwt: string) => void;
}

/** "Mint through a script": the same options, sent to the ad-hoc runner; the token is decoded below. */
export function ScriptMintSection({ orgClient, accountId, app, draft, token, onMinted }: ScriptMintSectionProps) {
  const [includeEmail, setIncludeEmail] = useState(true);
  const [minted, setMinted] = useState(false);
  const [openedAt] = useState(() => Date.now());
  const check = checkMintDraft(draft, app?.key ?? '', openedAt);
  const ready = accountId !== undefined && app !== undefined && check.request !== undefined;

  const mint = useMutation({
    mutationFn: async () => {
      if (!check.request || accountId === undefined) return null;
      const answer = await runScript(
        orgClient,
        { script: MINT_SCRIPT, arguments: scriptMintArguments(check.request, accountId, includeEmail) },
        new AbortController().signal,
      );
      if (!answer.ok) throw new ApiError(answer.fault);
      const jwt = tokenOfRunValue((answer.value as { object?: unknown; data?: unknown }).data);
      if (jwt === null) {
        throw new ApiError(consoleFault('script.notAToken', 200, 'The script did not answer a token.'));
      }
      onMinted(jwt);
      setMinted(true);
      return null;
    },
  });

  return (
    <section
      className="keys-section"
      style={{ marginTop: 12 }}
      data-testid="script-mint"
      aria-labelledby="script-mint-title"
    >
      <div className="keys-section__head">
        <h3 className="keys-section__title" id="script-mint-title">
          Mint through a script
        </h3>
      </div>
      <p className="keys-note">
        As the original system’s client does: the options above go to <code>POST /sys/script_runner</code> with this
        script.
      </p>
      <pre className="keys-pre" data-testid="script-mint-source">
        {MINT_SCRIPT}
      </pre>
      <div className="lab__row">
        <label className="check">
          <input
            type="checkbox"
            data-testid="script-mint-includeEmail"
            checked={includeEmail}
            onChange={(e) => setIncludeEmail(e.target.checked)}
          />
          includeEmail (service/eml)
        </label>
        <button
          type="button"
          className="button button--secondary"
          data-testid="script-mint-submit"
          disabled={!ready || mint.isPending}
          onClick={() => {
            setMinted(false);
            mint.mutate();
          }}
        >
          {mint.isPending ? 'Running…' : 'Mint through a script'}
        </button>
      </div>
      {mint.isError && <FaultMessage fault={faultOf(mint.error)} compact />}
      {minted && token !== '' && <DecodePane token={token} onToken={onMinted} />}
    </section>
  );
}
