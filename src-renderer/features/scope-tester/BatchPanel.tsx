import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { schemasQuery } from '../../api/schemas';
import { FaultMessage } from '../../components/FaultMessage';
import { BatchTable } from './BatchTable';
import type { evaluateBatch, TestRow } from './batch';
import { askService, mintTesterToken, serviceRequestFor, tokenScopes, type ServiceAnswer } from './service-check';
import type { ScopeTesterRoute } from './tester-route';

/** The batch of requests: local verdicts, "expect current verdicts", and a check against the service. */
export function BatchPanel({
  orgClient,
  route,
  chains,
  results,
  tokenScope,
  onRows,
}: {
  orgClient: OrgClient;
  route: ScopeTesterRoute;
  chains: string[];
  results: ReturnType<typeof evaluateBatch>;
  tokenScope: { scope: string[]; roles: string[] } | null;
  onRows: (rows: TestRow[]) => void;
}) {
  const schemas = useQuery(schemasQuery(orgClient));
  const [answers, setAnswers] = useState<{ key: string; list: ServiceAnswer[] } | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkFault, setCheckFault] = useState<ReturnType<typeof faultOf> | null>(null);
  // Answers belong to the exact rows and chains they were asked with; any edit clears them.
  const answerKey = JSON.stringify([route.rows, chains, tokenScope]);
  const shownAnswers = answers?.key === answerKey ? answers.list : undefined;

  const check = async () => {
    if (!tokenScope || !schemas.data) return;
    setChecking(true);
    setCheckFault(null);
    try {
      const jwt = await mintTesterToken(orgClient, tokenScopes(tokenScope.scope), tokenScope.roles);
      const collectionOf = (name: string) => schemas.data.find((schema) => schema.name === name)?.collection;
      const list: ServiceAnswer[] = [];
      for (const row of route.rows) {
        const planned = serviceRequestFor(row, collectionOf);
        list.push(
          planned.ok
            ? await askService(orgClient.org, jwt, row, planned.request)
            : { verdict: 'skipped', detail: planned.reason },
        );
      }
      setAnswers({ key: answerKey, list });
    } catch (error) {
      setCheckFault(faultOf(error));
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="panel" data-testid="tester-batch">
      <div className="access-toolbar">
        <p className="panel__title">Requests</p>
        <span className="query-panel__spacer" />
        <button
          type="button"
          className="button button--secondary"
          data-testid="tester-accept-expected"
          disabled={route.rows.length === 0}
          title="Record the current verdicts as the expected ones"
          onClick={() =>
            onRows(
              route.rows.map((row, index) => {
                const verdict = results[index]?.verdict;
                return verdict ? { ...row, expected: verdict } : row;
              }),
            )
          }
        >
          Expect current verdicts
        </button>
        <button
          type="button"
          className="button button--primary"
          data-testid="tester-check-service"
          disabled={checking || route.rows.length === 0 || !tokenScope || !schemas.data}
          onClick={() => void check()}
        >
          {checking ? 'Asking the service…' : 'Check against the service'}
        </button>
      </div>
      <p className="note">
        Checking mints a short-lived token for you with these chains (roles via <code>roles</code>) and sends reads and
        an empty <code>PATCH</code> with it; creates and deletes are never sent.
      </p>
      {checkFault && <FaultMessage fault={checkFault} compact />}
      {schemas.isError && (
        <FaultMessage fault={faultOf(schemas.error)} onRetry={() => void schemas.refetch()} compact />
      )}
      <BatchTable
        rows={route.rows}
        typeNames={schemas.data?.map((schema) => schema.name)}
        results={results}
        answers={shownAnswers}
        onRows={onRows}
      />
    </div>
  );
}
