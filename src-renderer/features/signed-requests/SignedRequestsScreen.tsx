import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
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
} from '../../api/signing';
import { FaultMessage } from '../../components/FaultMessage';
import { ScreenHeader } from '../../components/ScreenHeader';
import { ExchangeView, type Exchange } from './ExchangeView';
import type { NavigateOptions, Route } from '../../routing/route';
import type { SignedRequestsRoute } from './signed-route';
import { copyText } from '../../components/download';
import '../../styles/access.css';
import { Field, FieldError, FieldHint } from '../../components/Field';

interface SignedRequestsScreenProps {
  orgClient: OrgClient;
  route: SignedRequestsRoute;
  navigate: (route: Route, options?: NavigateOptions) => void;
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
      <ScreenHeader
        title="Signed requests"
        titleId="signed-title"
        description={
          <>
            Version 2:{' '}
            <code data-testid="signed-formula">
              HMAC-SHA256(key + secret, command;METHOD;timestamp;nonce;canonical query;hex sha256(body))
            </code>{' '}
            — signed in this page with WebCrypto, sent without the console's cookie.
          </>
        }
      />
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
                  <FieldHint>This app's principal is anonymous.</FieldHint>
                )}
              </Field>
            </div>
            {problem && (
              <FieldError alert testId="signed-problem">
                {problem}
              </FieldError>
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
