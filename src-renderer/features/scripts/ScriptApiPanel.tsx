import { useQuery } from '@tanstack/react-query';
import { MODULE_TABLE } from '../../../src-shared/scripting/api-description';
import type { OrgClient } from '../../api/org-client';
import { decoratedRoutesQuery, type ScriptRecord } from '../../api/scripts';

interface ScriptApiPanelProps {
  orgClient: OrgClient;
  library: readonly ScriptRecord[] | undefined;
}

/** The org's library exports (`configuration.export` of its library scripts), sorted and unique. */
export function libraryExportsOf(library: readonly ScriptRecord[] | undefined): string[] {
  const names = (library ?? [])
    .filter((s) => s.type === 'library' && typeof s.configuration?.export === 'string')
    .map((s) => s.configuration?.export as string);
  return [...new Set(names)].sort();
}

/**
 * What scripts can `require` (issue 40): the built-in modules with what each is here, the org's
 * library exports, and the routes libraries register with `@route`, with their URLs.
 */
export function ScriptApiPanel({ orgClient, library }: ScriptApiPanelProps) {
  const routes = useQuery(decoratedRoutesQuery(orgClient));
  const exportsList = libraryExportsOf(library);
  return (
    <div className="scripts__api" data-testid="script-api">
      <h2 className="pane-title">Modules</h2>
      <p className="keys-note">require(name) or import … from name</p>
      <details>
        <summary>Built-in ({MODULE_TABLE.length})</summary>
        <ul className="scripts__modules" data-testid="builtin-modules">
          {MODULE_TABLE.map((m) => (
            <li key={m.name} title={m.reason ? `${m.summary} ${m.reason}` : m.summary}>
              <code>{m.name}</code> <span className={`module-status module-status--${m.status}`}>{m.status}</span>
            </li>
          ))}
        </ul>
      </details>
      {exportsList.length === 0 ? (
        <p className="keys-note">No library exports: save a library script with an export name to require it.</p>
      ) : (
        <ul className="scripts__modules" data-testid="library-exports">
          {exportsList.map((name) => (
            <li key={name} title={`require('${name}')`}>
              <code>{name}</code>
            </li>
          ))}
        </ul>
      )}
      <h2 className="pane-title">Decorated routes</h2>
      {routes.isError && <p className="keys-note">The registered routes could not be read.</p>}
      {routes.data?.length === 0 && <p className="keys-note">No library registers a route with @route.</p>}
      {routes.data && routes.data.length > 0 && (
        <ul className="scripts__modules" data-testid="decorated-routes">
          {routes.data.map((r) => (
            <li
              key={`${r.configuration.method ?? '*'} ${r.configuration.path ?? ''} ${r.metadata.className}.${r.metadata.methodName}`}
            >
              <span className="script-type script-type--route">{(r.configuration.method ?? '*').toUpperCase()}</span>{' '}
              <code>
                /{orgClient.org}/v2/routes/{String(r.configuration.path ?? '').replace(/^\/+/, '')}
              </code>
              <span className="keys-note">
                {' '}
                {r.metadata.className}.{r.metadata.methodName}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
