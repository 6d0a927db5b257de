import { useQuery } from '@tanstack/react-query';
import { faultOf } from '../../api/api-error';
import { peerRunsQuery } from '../../api/environment';
import type { OrgClient } from '../../api/org-client';
import { FaultMessage } from '../../components/FaultMessage';
import { UtcTime } from '../../components/UtcTime';
import { ResultBadge } from './deployment-badges';

/**
 * Runs of other orgs' deployments that read or wrote this org, each let in by a credential this
 * org issued (a token minted here, or a signing app of this org): who ran it from where, and as
 * whom here. Revoking that credential (Token lab, Applications) stops the next run.
 */
export function PeerRuns({ orgClient }: { orgClient: OrgClient }) {
  const runs = useQuery(peerRunsQuery(orgClient));
  return (
    <section className="panel peer-runs" aria-label="Runs by other orgs" data-testid="peer-runs">
      <p className="panel__title">Other orgs’ deployments into or out of {orgClient.org}</p>
      {runs.isError && <FaultMessage fault={faultOf(runs.error)} compact />}
      {runs.data && runs.data.length === 0 && (
        <p className="note">None: no other org has read or written this one with a credential it issued.</p>
      )}
      {runs.data && runs.data.length > 0 && (
        <table className="config-table" data-testid="peer-runs-table">
          <thead>
            <tr>
              <th>When</th>
              <th>Deployment</th>
              <th>As (here)</th>
              <th>Credential</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.map((r) => (
              <tr key={r._id} data-testid="peer-run-row" data-result={r.result} data-org={r.from?.org}>
                <td>
                  <UtcTime iso={r.started} seconds />
                </td>
                <td>
                  <code>
                    {r.from?.org}
                    {r.from?.otherFolder ? ' (another data folder)' : ''} / {r.from?.deployment}
                  </code>
                  <div className="note">
                    {r.from?.side === 'source' ? 'read this org' : 'wrote this org'} · run by {r.from?.by}
                  </div>
                </td>
                <td>{r.by}</td>
                <td>
                  <code>{r.from?.credential}</code>
                </td>
                <td>
                  <ResultBadge run={r} />
                  {r.reason && <div className="note">{r.reason}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
