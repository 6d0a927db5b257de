import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isFaultBody } from '../../../src-shared/faults';
import { faultOf } from '../../api/api-error';
import type { HttpMethod } from '../../api/http';
import type { OrgClient } from '../../api/org-client';
import {
  SIGNED_METHODS,
  curlCommand,
  makeNonce,
  methodHasBody,
  planSignedRequest,
  sendSignedRequest,
  signingAppsQuery,
  type SignedRequestPlan,
  type SignedResponse,
} from '../../api/signing';
import { FaultMessage } from '../../components/FaultMessage';
import type { NavigateOptions, Route } from '../../routing/route';
import type { SignedRequestsRoute } from './signed-route';
import { copyText } from '../../components/download';
import '../../styles/access.css';
import { Field } from '../../components/Field';

interface SignedRequestsScreenProps {
  orgClient: OrgClient;
  route: SignedRequestsRoute;
  navigate: (route: Route, options?: NavigateOptions) => void;
}

interface Exchange {
  plan: SignedRequestPlan;
  /** Whether the plan has been sent (a plan made for "Copy as curl" is not). */
  response?: SignedResponse;
  replay?: SignedResponse;
  failure?: string;
}

/** Compose, sign (WebCrypto HMAC-SHA256, decisions.md §4), send and replay a signed request. */
export function SignedRequestsScreen({ orgClient, route, navigate }: SignedRequestsScreenProps) {
  const apps = useQuery(signingAppsQuery(orgClient));
  // The secret is shown once by the service and pasted here: component state only.
  const [secret, setSecret] = useState('');
  const [exchange, setExchange] = useState<Exchange | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const edit = (next: Partial<SignedRequestsRoute>) => navigate({ ...route, ...next }, { replace: true });

  const app = apps.data?.find((candidate) => candidate.key === route.app);

  const sign = async (): Promise<SignedRequestPlan | null> => {
    setProblem(null);
    setCopied(null);
    const planned = await planSignedRequest({
      origin: window.location.origin,
      org: orgClient.org,
      method: route.method,
      path: route.path,
      body: route.body,
      principal: route.as,
      appKey: route.app ?? '',
      apiSecret: secret,
      timestampMs: Date.now(),
      nonce: makeNonce(),
    });
    if (!planned.ok) {
      setProblem(planned.problem);
      return null;
    }
    return planned.plan;
  };

  const send = async (plan: SignedRequestPlan, replay: boolean) => {
    setBusy(true);
    try {
      const response = await sendSignedRequest(plan);
      setExchange((current) =>
        replay && current?.plan === plan ? { ...current, replay: response } : { plan, response },
      );
    } catch (error) {
      setExchange({ plan, failure: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="screen screen--scroll" aria-labelledby="signed-title">
      <div className="screen__header">
        <div>
          <h1 className="screen__title" id="signed-title">
            Signed requests
          </h1>
          <p className="screen__subtitle">
            <code>HMAC-SHA256(key + secret, command;METHOD;timestamp)</code> — signed in this page with WebCrypto, sent
            without the console's cookie.
          </p>
        </div>
      </div>
      {apps.isPending && (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Loading applications…
        </p>
      )}
      {apps.isError && <FaultMessage fault={faultOf(apps.error)} onRetry={() => void apps.refetch()} />}
      {apps.data?.length === 0 && (
        <div className="empty-state" data-testid="signed-no-apps">
          <p className="empty-state__title">No signing app in this org</p>
          <p>Create one under Applications (kind “signing”); its secret is shown once, at creation.</p>
        </div>
      )}
      {apps.data && apps.data.length > 0 && (
        <div className="signed-layout">
          <form
            className="panel"
            data-testid="signed-form"
            onSubmit={(e) => {
              e.preventDefault();
              void sign().then((plan) => plan && send(plan, false));
            }}
          >
            <div className="form-grid">
              <Field label="Signing app">
                <select
                  className="select select--large"
                  data-testid="signed-app"
                  value={route.app ?? ''}
                  onChange={(e) => {
                    setSecret('');
                    setExchange(null);
                    edit({ app: e.target.value || undefined });
                  }}
                >
                  <option value="">Choose…</option>
                  {apps.data.map((candidate) => (
                    <option key={candidate.key} value={candidate.key}>
                      {candidate.label} — {candidate.key}
                      {candidate.enabled ? '' : ' (disabled)'}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Secret (not stored)">
                <input
                  className="input input--mono"
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  data-testid="signed-secret"
                  value={secret}
                  placeholder="64 letters and digits"
                  onChange={(e) => setSecret(e.target.value)}
                />
              </Field>
              <Field label="Method">
                <select
                  className="select select--large"
                  data-testid="signed-method"
                  value={route.method}
                  onChange={(e) => edit({ method: e.target.value as HttpMethod })}
                >
                  {SIGNED_METHODS.map((method) => (
                    <option key={method}>{method}</option>
                  ))}
                </select>
              </Field>
              <Field label={<>Path under /{orgClient.org}/v2</>}>
                <input
                  className="input input--mono"
                  data-testid="signed-path"
                  spellCheck={false}
                  value={route.path}
                  onChange={(e) => edit({ path: e.target.value })}
                />
              </Field>
              {methodHasBody(route.method) && (
                <Field label="JSON body (optional)" wide>
                  <textarea
                    className="input input--mono"
                    data-testid="signed-body"
                    spellCheck={false}
                    value={route.body}
                    onChange={(e) => edit({ body: e.target.value })}
                  />
                </Field>
              )}
              <Field label="Act as (Service-Client-Account, optional)" wide>
                <input
                  className="input input--mono"
                  data-testid="signed-as"
                  spellCheck={false}
                  placeholder="account id or email"
                  value={route.as}
                  onChange={(e) => edit({ as: e.target.value })}
                />
                {app && !app.principalOverride && route.as.trim() !== '' && (
                  <span className="note note--warn">
                    This app does not allow principal override; the service ignores the header and uses the app's
                    principal.
                  </span>
                )}
                {app && !app.principalOverride && route.as.trim() === '' && app.principalId === null && (
                  <span className="field__hint">This app's principal is anonymous.</span>
                )}
              </Field>
            </div>
            {problem && (
              <p className="field__error" role="alert" data-testid="signed-problem">
                {problem}
              </p>
            )}
            <div className="form__actions">
              <button type="submit" className="button button--primary" data-testid="signed-send" disabled={busy}>
                {busy ? 'Sending…' : 'Sign and send'}
              </button>
              <button
                type="button"
                className="button button--secondary"
                data-testid="signed-replay"
                disabled={busy || !exchange?.response}
                title="Send the exact same headers again"
                onClick={() => exchange && void send(exchange.plan, true)}
              >
                Replay
              </button>
              <button
                type="button"
                className="button button--secondary"
                data-testid="signed-copy-curl"
                disabled={busy}
                title="Sign a fresh request (not sent) and copy it as a curl command"
                onClick={() =>
                  void sign().then(async (plan) => {
                    if (!plan) return;
                    setExchange({ plan });
                    const text = curlCommand(plan);
                    setCopied((await copyText(text)) ? text : `${text}`);
                  })
                }
              >
                Copy as curl
              </button>
            </div>
          </form>
          <div className="access-column">
            {exchange ? (
              <ExchangeView exchange={exchange} curl={copied} />
            ) : (
              <div className="empty-state" data-testid="signed-empty">
                <p className="empty-state__title">Nothing sent yet</p>
                <p>The command, signed string, nonce, timestamp and signature appear here.</p>
              </div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function ExchangeView({ exchange, curl }: { exchange: Exchange; curl: string | null }) {
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
          <div className="field">
            <span className="field__label">curl (copied; signed but not sent — it works once)</span>
            <pre className="json-view response-box" data-testid="signed-curl">
              {curl}
            </pre>
          </div>
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
  return (
    <div className="panel" data-testid={`${testId}-response`}>
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
    </div>
  );
}
