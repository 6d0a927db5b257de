import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { faultOf } from '../../api/api-error';
import { useServiceOrigin } from '../../api/desktop-connections';
import type { HttpMethod } from '../../api/http';
import type { OrgClient } from '../../api/org-client';
import { callRoute, type RouteAnswer, type ScriptConfiguration } from '../../api/scripts';
import { CopyButton } from '../../components/CopyButton';
import { FaultMessage } from '../../components/FaultMessage';
import { routeUrl } from './save-draft';

/** A saved route script's URL, to copy, and a "try it" call as the signed-in administrator. */
export function RouteTry({
  orgClient,
  route,
}: {
  orgClient: OrgClient;
  route: ScriptConfiguration & { path: string };
}) {
  // Copied URLs name the service that answers (on the desktop, not the gateway's origin).
  const serviceOrigin = useServiceOrigin();
  const [tried, setTried] = useState<RouteAnswer | null>(null);
  const method = (route.method ?? 'get') === '*' ? 'GET' : (route.method ?? 'get').toUpperCase();
  const tryIt = useMutation({
    mutationFn: () => callRoute(orgClient, method as HttpMethod, route.path),
    onMutate: () => setTried(null),
    onSuccess: setTried,
  });
  const url = routeUrl(serviceOrigin, orgClient.org, route.path);
  return (
    <div className="script-route" data-testid="route-info">
      <p className="keys-note">As saved, this route script answers at</p>
      <div className="lab__row">
        <code className="script-route__url" data-testid="route-url">
          {route.method === '*' ? 'ANY' : (route.method ?? 'get').toUpperCase()} {url}
        </code>
        <CopyButton text={url} testId="route-copy" />
        <button
          type="button"
          className="button button--secondary button--small"
          data-testid="route-try"
          disabled={tryIt.isPending || route.path.includes(':')}
          title={route.path.includes(':') ? 'Fill the :params in the URL to call it' : undefined}
          onClick={() => tryIt.mutate()}
        >
          {tryIt.isPending ? 'Calling…' : 'Try it'}
        </button>
      </div>
      {tryIt.isError && <FaultMessage fault={faultOf(tryIt.error)} compact />}
      {tried && (
        <pre
          className={tried.ok ? 'keys-pre' : 'keys-pre run-output__json--bad'}
          data-testid="route-answer"
          data-ok={tried.ok}
        >
          {JSON.stringify(tried.body, null, 2)}
        </pre>
      )}
    </div>
  );
}
