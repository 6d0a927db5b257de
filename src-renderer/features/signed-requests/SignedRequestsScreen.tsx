import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import {
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
import { FieldError } from '../../components/Field';
import { ComposerFields } from './ComposerFields';
import { checkHeaders, type Pair } from './request-parts';
import { clearSent, recordSent, requestKey, sentRequests, type ComposedRequest } from './sent-history';
import { SentHistory } from './SentHistory';

interface SignedRequestsScreenProps {
  orgClient: OrgClient;
  route: SignedRequestsRoute;
  navigate: (route: Route, options?: NavigateOptions) => void;
}

/** Compose, sign (WebCrypto HMAC-SHA256, docs/signing.md), send and replay a signed request. */
export function SignedRequestsScreen({ orgClient, route, navigate }: SignedRequestsScreenProps) {
  const apps = useQuery(signingAppsQuery(orgClient));
  // The secret is shown once by the service and pasted here: component state only.
  const [secret, setSecret] = useState('');
  // Extra headers can carry credentials: component state (and the in-memory history) only.
  const [headers, setHeaders] = useState<Pair[]>([]);
  const [exchange, setExchange] = useState<Exchange | null>(null);
  // The request the shown answer was sent from: Replay re-sends it only while the form still says so.
  const [sentKey, setSentKey] = useState<string | null>(null);
  const [history, setHistory] = useState(() => sentRequests(orgClient.org));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const edit = (next: Partial<SignedRequestsRoute>) => navigate({ ...route, ...next }, { replace: true });

  const composed: ComposedRequest = {
    app: route.app,
    method: route.method,
    path: route.path,
    body: route.body,
    as: route.as,
    headers,
  };
  const currentKey = requestKey(composed, methodHasBody(route.method));
  const changed = sentKey !== null && sentKey !== currentKey;

  const sign = async (): Promise<SignedRequestPlan | null> => {
    setProblem(null);
    setCopied(null);
    const extra = checkHeaders(headers);
    if (!extra.ok) {
      setProblem(extra.problem);
      return null;
    }
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
      extraHeaders: extra.headers,
    });
    if (!planned.ok) {
      setProblem(planned.problem);
      return null;
    }
    return planned.plan;
  };

  const send = async (plan: SignedRequestPlan, replay: boolean) => {
    setBusy(true);
    const key = currentKey;
    const request = composed;
    try {
      const response = await sendSignedRequest(plan);
      setExchange((current) =>
        replay && current?.plan === plan ? { ...current, replay: response } : { plan, response },
      );
      if (!replay) {
        setSentKey(key);
        setHistory(
          recordSent(orgClient.org, {
            ...request,
            at: Date.now(),
            status: response.status,
            ...(response.errCode ? { errCode: response.errCode } : {}),
          }),
        );
      }
    } catch (error) {
      const failure = error instanceof Error ? error.message : String(error);
      setExchange({ plan, failure });
      setSentKey(null);
      if (!replay) setHistory(recordSent(orgClient.org, { ...request, at: Date.now(), failure }));
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
          <div className="access-column">
            <form
              className="panel"
              data-testid="signed-form"
              onSubmit={(e) => {
                e.preventDefault();
                void sign().then((plan) => plan && send(plan, false));
              }}
            >
              <ComposerFields
                org={orgClient.org}
                apps={apps.data}
                route={route}
                secret={secret}
                headers={headers}
                onSecret={setSecret}
                onHeaders={setHeaders}
                onApp={(app) => {
                  setSecret('');
                  setExchange(null);
                  setSentKey(null);
                  edit({ app });
                }}
                onEdit={edit}
              />
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
                  disabled={busy || !exchange?.response || changed}
                  title={
                    changed
                      ? 'The request changed since it was sent: Sign and send it instead'
                      : 'Send the exact same headers again'
                  }
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
                      setSentKey(null);
                      const text = curlCommand(plan);
                      setCopied((await copyText(text)) ? text : `${text}`);
                    })
                  }
                >
                  Copy as curl
                </button>
              </div>
              {changed && exchange?.response && (
                <p className="note" data-testid="signed-replay-note">
                  Replay is off: the form no longer describes the request that was sent.
                </p>
              )}
            </form>
            <SentHistory
              entries={history}
              onClear={() => {
                clearSent(orgClient.org);
                setHistory([]);
              }}
              onLoad={(entry) => {
                setHeaders(entry.headers.map((h) => ({ ...h })));
                setProblem(null);
                navigate(
                  { ...route, app: entry.app, method: entry.method, path: entry.path, body: entry.body, as: entry.as },
                  { replace: true },
                );
              }}
            />
          </div>
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
