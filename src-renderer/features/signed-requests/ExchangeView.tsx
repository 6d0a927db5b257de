import { useEffect, useRef } from 'react';
import { isFaultBody } from '../../../src-shared/faults';
import type { SignedRequestPlan, SignedResponse } from '../../api/signing';
import { FaultMessage } from '../../components/FaultMessage';
import { Field } from '../../components/Field';

/** A signed request as planned and, once sent, its answer and the replay's. */
export interface Exchange {
  plan: SignedRequestPlan;
  /** Whether the plan has been sent (a plan made for "Copy as curl" is not). */
  response?: SignedResponse;
  replay?: SignedResponse;
  failure?: string;
}

/** What was signed (the canonical string, headers), the curl line, and the answers. */
export function ExchangeView({ exchange, curl }: { exchange: Exchange; curl: string | null }) {
  const { plan } = exchange;
  return (
    <>
      <div className="panel" data-testid="signed-plan">
        <p className="panel__title">
          {plan.method} <code>{new URL(plan.url).pathname + new URL(plan.url).search}</code>
        </p>
        <dl className="kv">
          <dt>command</dt>
          <dd data-testid="signed-command">{plan.command}</dd>
          <dt>signed string</dt>
          <dd data-testid="signed-message">{plan.message}</dd>
          <dt>timestamp</dt>
          <dd data-testid="signed-timestamp">
            {plan.timestampMs} <span className="note">({new Date(plan.timestampMs).toISOString()})</span>
          </dd>
          <dt>nonce</dt>
          <dd data-testid="signed-nonce">{plan.nonce}</dd>
          <dt>signature</dt>
          <dd data-testid="signed-signature">{plan.signature}</dd>
        </dl>
        <details>
          <summary className="note">Headers sent</summary>
          <dl className="kv">
            {Object.entries(plan.headers).map(([name, value]) => (
              <FragmentPair key={name} name={name} value={value} />
            ))}
          </dl>
        </details>
        {curl && (
          <Field display label="curl (copied; signed but not sent — it works once)">
            <pre className="json-view response-box" data-testid="signed-curl">
              {curl}
            </pre>
          </Field>
        )}
      </div>
      {exchange.failure && (
        <FaultMessage
          fault={{
            object: 'fault',
            name: 'error',
            code: 'kError',
            errCode: 'console.network.unreachable',
            status: 0,
            message: `The request could not be sent: ${exchange.failure}`,
          }}
        />
      )}
      {exchange.response && <ResponseView title="Response" response={exchange.response} testId="signed" plan={plan} />}
      {exchange.replay && (
        <ResponseView title="Replay (same headers)" response={exchange.replay} testId="replay" plan={plan} />
      )}
    </>
  );
}

function FragmentPair({ name, value }: { name: string; value: string }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </>
  );
}

function ResponseView({
  title,
  response,
  testId,
  plan,
}: {
  title: string;
  response: SignedResponse;
  testId: string;
  plan: SignedRequestPlan;
}) {
  const ok = response.status >= 200 && response.status < 300;
  const skew = response.serverTime !== null ? response.serverTime - plan.timestampMs : null;
  // Each new answer is brought into view: below the form on a narrow window, it was easy to miss.
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A statement, not the arrow's value: newer browsers answer scrollIntoView with a promise, which
    // React would take for the effect's cleanup.
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, [response]);
  return (
    <div className="panel" data-testid={`${testId}-response`} ref={panel}>
      <div className="access-toolbar">
        <p className="panel__title">{title}</p>
        <span
          className={ok ? 'status-chip status-chip--ok' : 'status-chip status-chip--bad'}
          data-testid={`${testId}-status`}
        >
          {response.status}
        </span>
        {response.errCode && <code data-testid={`${testId}-errcode`}>{response.errCode}</code>}
        <span className="note">
          {response.ms} ms{skew !== null && ` · server clock ${skew >= 0 ? '+' : ''}${skew} ms from the timestamp`}
        </span>
      </div>
      {isFaultBody(response.body) && <FaultMessage fault={response.body} compact />}
      <pre className="json-view response-box" data-testid={`${testId}-body`}>
        {typeof response.body === 'string' ? response.body : JSON.stringify(response.body, null, 2)}
      </pre>
      <details className="response-headers" open data-testid={`${testId}-headers`}>
        <summary className="note">Response headers ({response.headers.length})</summary>
        <dl className="kv">
          {response.headers.map(([name, value]) => (
            <FragmentPair key={name} name={name} value={value} />
          ))}
        </dl>
      </details>
    </div>
  );
}
