import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { useConsoleClient } from '../api/client-context';
import { sessionQuery } from '../api/session';
import type { OrgSummary } from '../api/types';
import { useDismissableDetails } from './use-dismissable-details';

interface OrgSwitcherProps {
  current: OrgSummary;
  /** Every org of the service (`/_service/info`, as the sign-in screen's picker lists them). */
  orgs: readonly OrgSummary[];
  /** Goes to that org: its console if signed in there, else its sign-in screen. */
  onSelect: (code: string) => void;
  /** Shown only to the operator, who alone may create orgs (the service says so: `operator` in the session status). */
  onNewOrg?: () => void;
}

/**
 * The org chip in the header, as a menu of the service's orgs. Each org has its own accounts and
 * sessions (an email names an account within its org only), so each row says whether this browser
 * is signed in there; the sessions are asked only while the menu is open.
 */
export function OrgSwitcher({ current, orgs, onSelect, onNewOrg }: OrgSwitcherProps) {
  const client = useConsoleClient();
  const [open, setOpen] = useState(false);
  const menu = useDismissableDetails(current.code, () => setOpen(false));
  const sessions = useQueries({
    queries: orgs.map((org) => ({ ...sessionQuery(client.org(org)), enabled: open })),
  });
  /** Closes the menu a pick was made in (the element clicked is inside it). */
  const close = (inside: HTMLElement) => {
    inside.closest('details')?.removeAttribute('open');
    setOpen(false);
  };
  return (
    <details
      className="popover org-switcher"
      data-testid="org-switcher"
      ref={menu}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className="org-chip org-switcher__summary" title={`Org code: ${current.code}. Switch org`}>
        <span className="org-chip__name">{current.name}</span>
        {current.name !== current.code && <code className="org-chip__code">{current.code}</code>}
        <span className="org-switcher__caret" aria-hidden="true">
          ▾
        </span>
      </summary>
      <div className="popover__body org-switcher__body" role="group" aria-label="Orgs">
        <p className="popover__heading">Orgs on this service</p>
        {orgs.map((org, i) => {
          const session = sessions[i];
          const signedIn = session?.data?.loggedin === true;
          const state =
            org.code === current.code ? 'current' : signedIn ? 'signed in' : session?.isPending ? '…' : 'sign in';
          return (
            <button
              key={org.code}
              type="button"
              className="org-switcher__item"
              data-testid="org-switcher-item"
              data-org={org.code}
              data-state={state}
              aria-current={org.code === current.code ? 'true' : undefined}
              onClick={(e) => {
                close(e.currentTarget);
                if (org.code !== current.code) onSelect(org.code);
              }}
            >
              <span className="org-switcher__name">{org.name}</span>
              {org.name !== org.code ? <code>{org.code}</code> : <span />}
              <span className={`badge ${signedIn || org.code === current.code ? 'badge--ok' : 'badge--muted'}`}>
                {state}
              </span>
            </button>
          );
        })}
        {onNewOrg && (
          <button
            type="button"
            className="button button--secondary button--small"
            data-testid="org-new"
            onClick={(e) => {
              close(e.currentTarget);
              onNewOrg();
            }}
          >
            New org…
          </button>
        )}
      </div>
    </details>
  );
}
