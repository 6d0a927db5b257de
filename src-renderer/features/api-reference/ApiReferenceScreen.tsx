import { useQuery } from '@tanstack/react-query';
import type { OrgClient } from '../../api/org-client';
import { apiReferenceQuery } from '../../api/api-reference';
import { useConsoleClient } from '../../api/client-context';
import { QueryState } from '../../components/QueryState';
import { ScreenHeader } from '../../components/ScreenHeader';
import '../../styles/reference.css';

interface ApiReferenceScreenProps {
  orgClient: OrgClient;
}

/**
 * The service's API reference: the page at /_service/docs (Scalar, offline), framed. It renders
 * /_service/openapi.json, follows the console's theme, and "try it" sends requests in this
 * session (page/reference-fetch.ts).
 */
export function ApiReferenceScreen({ orgClient }: ApiReferenceScreenProps) {
  const available = useQuery(apiReferenceQuery(useConsoleClient()));
  return (
    <section className="screen" aria-labelledby="api-reference-title">
      <ScreenHeader
        title="API reference"
        titleId="api-reference-title"
        description={
          <>
            Every route of the service, from <code>GET /_service/openapi.json</code>; “try it” calls it as you.
          </>
        }
      />
      <QueryState query={available} loading="Loading the API reference…">
        {(served) =>
          served ? (
            <iframe
              className="reference-frame"
              title="API reference"
              data-testid="api-reference-frame"
              src={`/_service/docs?org=${encodeURIComponent(orgClient.org)}`}
            />
          ) : (
            <div className="empty-state" data-testid="api-reference-missing">
              This service publishes no API reference at <code>/_service/docs</code>.
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
