import type { ServiceApp } from '../../api/apps';
import type { OrgClient } from '../../api/org-client';
import { SessionsTable } from '../../components/SessionsTable';

/** The live sessions started through this app. */
export function SessionsTab({ orgClient, app }: { orgClient: OrgClient; app: ServiceApp }) {
  return (
    <section className="keys-section" aria-label="Sessions" data-testid="app-sessions">
      {app.kind === 'signing' ? (
        <p className="keys-note">Signing apps sign each request; they have no sessions.</p>
      ) : (
        <SessionsTable orgClient={orgClient} app={app.key} testId="app-sessions" />
      )}
    </section>
  );
}
