import { useState } from 'react';
import { copyText } from '../../../components/download';
import { useDismissableDetails } from '../../../components/use-dismissable-details';
import { driverCallCommand, scriptCall, signedCurlScript, tokenCurlCommand } from './request-url';

interface RequestMenuProps {
  /** The exact request of the page shown, or null while there is none. */
  requestUrl: string | null;
  appKey: string;
  collection: string;
}

/**
 * The request the page sends, and the same query as commands a person can run elsewhere: curl
 * with a token or signed (version 2), a driver call, a Scripts-screen script. None of them needs
 * the console's session cookie, which is HttpOnly and so cannot be copied.
 */
export function RequestMenu({ requestUrl, appKey, collection }: RequestMenuProps) {
  const [copied, setCopied] = useState<string | null>(null);
  const menu = useDismissableDetails(collection);
  const copy = async (text: string | null, what: string) => {
    if (text === null) return;
    setCopied((await copyText(text)) ? `${what} copied.` : `Could not copy the ${what.toLowerCase()}.`);
  };
  const signed = requestUrl ? signedCurlScript(requestUrl) : null;
  const items: { id: string; label: string; what: string; title: string; text: string | null }[] = requestUrl
    ? [
        { id: 'qb-copy-url', label: 'Copy URL', what: 'URL', title: 'The GET request as sent', text: requestUrl },
        {
          id: 'qb-copy-curl',
          label: 'Copy as curl (token)',
          what: 'curl command',
          title: 'Authorization: Bearer $TOKEN — mint a token in the Token lab',
          text: tokenCurlCommand(requestUrl, appKey),
        },
        {
          id: 'qb-copy-signed',
          label: 'Copy as curl (signed v2)',
          what: 'signed curl script',
          title: 'Signs in the shell with $API_KEY and $API_SECRET of a signing app (openssl)',
          text: signed,
        },
        {
          id: 'qb-copy-driver',
          label: 'Copy as driver call',
          what: 'driver call',
          title: 'POST …/db/cursor with the query as a JSON body; uses cookies.txt and $CSRF from a curl login',
          text: driverCallCommand(requestUrl, appKey),
        },
        {
          id: 'qb-copy-script',
          label: 'Copy as script',
          what: 'script',
          title: 'org.objects…find() for the Scripts screen',
          text: scriptCall(requestUrl, collection),
        },
      ]
    : [];
  return (
    <details className="popover popover--end" data-testid="qb-request" ref={menu}>
      <summary className="button button--ghost button--small">Request ▾</summary>
      <div className="popover__body request-menu" role="group" aria-label="Request">
        <div className="request-line">
          <span className="option-label">GET</span>
          <code className="request-line__url" data-testid="qb-request-url">
            {requestUrl ?? '—'}
          </code>
        </div>
        <div className="request-menu__actions">
          {items.map((item) => (
            <button
              key={item.id}
              type="button"
              className="button button--ghost button--small"
              data-testid={item.id}
              disabled={item.text === null}
              title={item.title}
              onClick={() => void copy(item.text, item.what)}
            >
              {item.label}
            </button>
          ))}
        </div>
        {copied && (
          <span className="qb-hint" role="status" data-testid="qb-copied">
            {copied}
          </span>
        )}
      </div>
    </details>
  );
}
