/**
 * Routes registered by library scripts with the original's `@route('GET path', {acl, …})`
 * decorator (read at save time, language/registrations.ts). Each is served like a route record:
 * the same matching, acl, scope (`script.execute.route.<library _id>`) and principal rules; its
 * run evaluates the library and calls the decorated method (`runtime.route` in the prelude).
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { StaticValue } from './language/static-value.js';
import type { ScriptRegistration } from './language/registrations.js';
import { libraryRegistrations, libraryScripts, type LibraryScript } from './host-library.js';
import type { RouteConfig, RouteScript } from './route-types.js';
import { routeAcl } from '../../../src-shared/schema/acl-entry.js';

/**
 * A decorated route's acl (src-shared/schema/acl-entry.ts). The save refused an acl it cannot read
 * (script-rules); a library saved before that rule gets one that admits no one, never the default.
 */
export function aclEntries(value: StaticValue | undefined): string[] {
  try {
    return routeAcl(value);
  } catch {
    return ['unreadable'];
  }
}

function routeConfig(reg: ScriptRegistration): RouteConfig {
  const c = reg.configuration;
  const str = (v: StaticValue | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);
  const apiKey = str(c.apiKey);
  const principal = str(c.principal);
  const authValidation = str(c.authValidation);
  return {
    method: String(c.method ?? '*').toLowerCase(),
    path: String(c.path ?? ''),
    priority: typeof c.priority === 'number' ? c.priority : 0,
    acl: aclEntries(c.acl),
    ...(authValidation ? { authValidation } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(principal ? { principal } : {}),
    ...(c.urlEncoded === true ? { urlEncoded: true } : {}),
  };
}

/**
 * The run of a decorated handler: evaluate the library, call its method (prelude
 * decorator-modules.ts `runtime.route`, `runtime.trigger`, `runtime.job`, by the registration's type).
 */
export function dispatchSource(lib: LibraryScript, reg: ScriptRegistration): string {
  const spec = {
    id: lib._id,
    className: reg.metadata.className,
    methodName: reg.metadata.methodName,
    static: reg.metadata.static,
    runtime: { name: reg.name ?? null, weight: reg.weight, configuration: reg.configuration, metadata: reg.metadata },
  };
  return `return require('runtime.${reg.type}').run(${JSON.stringify(spec)})`;
}

export function routesOfLibrary(lib: LibraryScript, registrations = libraryRegistrations(lib)): RouteScript[] {
  return registrations
    .filter((r) => r.type === 'route')
    .map((reg) => ({
      _id: lib._id,
      script: dispatchSource(lib, reg),
      weight: reg.weight,
      config: routeConfig(reg),
      handler: `${reg.metadata.className}.${reg.metadata.methodName}`,
    }));
}

export function decoratorRoutes(svc: Service, org: Org, activeOnly: boolean): RouteScript[] {
  return libraryScripts(svc, org)
    .filter((lib) => !activeOnly || lib.active)
    .flatMap((lib) => routesOfLibrary(lib));
}
