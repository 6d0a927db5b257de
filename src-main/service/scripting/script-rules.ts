/**
 * What a script record must meet to be written, by any writer (REST `/scripts`, the driver API,
 * scripts' `org.objects.scripts`, environment import and deployments, the CLI): its source
 * compiles, and a route script has a valid path, an `apiKey` of an app of the org and a method and
 * path no other route script has (docs/scripting.md#script-routes). Registered as record rules of the one
 * write path (records/rules.ts) when a service opens.
 */
import { fault, FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { recordRules, type RuleInput } from '../records/rules.js';
import { checkSyntaxSync, loadSyntaxChecker } from './syntax.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { configOf, PATH_PATTERN, pathShape, routeScripts } from './route-scripts.js';
import { compileScript } from './language/compiled-cache.js';
import { routesOfLibrary } from './decorator-routes.js';
import type { ScriptRegistration } from './language/registrations.js';
import { routeAcl } from '../../../src-shared/schema/acl-entry.js';

const DEFAULT_MAX_CHARS = 50_000;

/**
 * Makes every write of a script record (REST, driver API, scripts' `org.objects.scripts`,
 * environment import and deployments, the CLI) check it through the record rules of the one write
 * path (records/rules.ts); the syntax checker loads before writes. Idempotent.
 */
export function registerScriptRecordRules(svc: Service): void {
  const check = ({ org, merged, current }: RuleInput) => {
    assertScriptCompiles(merged);
    assertRouteConfig(svc, org, merged, current?._id);
    assertDecoratorRoutes(svc, org, merged, current?._id);
  };
  recordRules(svc).register('script', 'script-rules', check, loadSyntaxChecker);
}

/**
 * The source compiles (fault with line and column of the source as written otherwise): it is
 * transpiled here, once per version (language/compiled-cache.ts keeps it for the runs), then the
 * result is compiled by QuickJS; `loadSyntaxChecker` must have run.
 */
export function assertScriptCompiles(values: Record<string, unknown>): void {
  if (typeof values.script !== 'string') return;
  const transpiled = values.script.length > DEFAULT_MAX_CHARS ? undefined : compileScript(values.script);
  if (transpiled && !transpiled.ok) {
    throw fault('validation', 'script', {
      path: 'script',
      reason: `Line ${transpiled.line}, column ${transpiled.column}: ${transpiled.message}`,
    });
  }
  // A library's @policy options are checked by the policies' own record rule (policies/policy-rules.ts).
  if (transpiled?.ok) assertRouteAcls(transpiled.registrations);
  const check = transpiled ? checkSyntaxSync(transpiled.code, Infinity) : checkSyntaxSync(values.script);
  if (check === null) {
    throw fault('error', 'script.syntaxCheck', { reason: 'The script checker is not loaded yet; try again.' });
  }
  if (!check.ok) {
    throw fault('validation', 'script', {
      path: 'script',
      reason: `Line ${check.line}, column ${check.column}: ${check.message}`,
    });
  }
}

/** Each `@route`'s acl reads as this service's entries (src-shared/schema/acl-entry.ts), else the save names the line. */
function assertRouteAcls(registrations: ScriptRegistration[]): void {
  for (const reg of registrations.filter((r) => r.type === 'route')) {
    const { className, methodName, loc } = reg.metadata;
    try {
      routeAcl(reg.configuration.acl);
    } catch (e) {
      const reason = e instanceof FaultError ? e.fault.reason : String(e);
      throw fault('validation', 'script', {
        path: 'script',
        reason: `Line ${loc.line}, column ${loc.column}: @route ${className}.${methodName}: ${reason}`,
      });
    }
  }
}

/**
 * A route script has a method and a valid path, an apiKey and a principal that exist, and no other
 * route script has the same method and path (§C).
 */
export function assertRouteConfig(svc: Service, org: Org, merged: Record<string, unknown>, selfId?: string): void {
  if (merged.type !== 'route') return;
  const config = configOf(merged);
  if (!PATH_PATTERN.test(config.path)) {
    throw fault('validation', 'invalidPath', {
      path: 'configuration.path',
      reason: 'A route script needs a path such as /patients/:id.',
    });
  }
  if (config.apiKey !== undefined && svc.apps.byKey(config.apiKey)?.orgId !== org.id) {
    throw fault('validation', 'invalidReference', {
      path: 'configuration.apiKey',
      reason: 'apiKey must be the key of an app of this org.',
    });
  }
  // Checked on save (REST, driver, import) as a view's principal is: a route naming no usable
  // account would answer every call with a 500 (issue 38 low 3). Who may name it: named-principal.ts.
  if (config.principal !== undefined) {
    const found = lookupAccountPrincipal(svc, org, config.principal);
    if ('problem' in found) {
      throw fault('validation', 'invalidReference', {
        path: 'configuration.principal',
        reason: `principal must name an account of the org (by _id or email): ${found.problem}`,
      });
    }
  }
  const clash = routeScripts(svc, org, false).find(
    (r) => r._id !== selfId && r.config.method === config.method && pathShape(r.config.path) === pathShape(config.path),
  );
  if (clash) {
    throw fault('validation', 'conflict', {
      path: 'configuration.path',
      reason: `Script ${clash._id} already handles ${config.method} ${config.path}.`,
    });
  }
}

/** The routes a library registers with `@route` clash with no other route of the org. */
function assertDecoratorRoutes(svc: Service, org: Org, merged: Record<string, unknown>, selfId?: string): void {
  if (merged.type !== 'library' || typeof merged.script !== 'string') return;
  const own = routesOfLibrary({ _id: selfId ?? '', source: merged.script, active: true });
  if (own.length === 0) return;
  const others = routeScripts(svc, org, false).filter((r) => r._id !== selfId);
  for (const [i, route] of own.entries()) {
    if (!PATH_PATTERN.test(route.config.path)) {
      throw fault('validation', 'invalidPath', {
        path: 'script',
        reason: `@route ${route.handler ?? ''}: a path such as /patients/:id.`,
      });
    }
    const clash = [...others, ...own.slice(0, i)].find(
      (r) => r.config.method === route.config.method && pathShape(r.config.path) === pathShape(route.config.path),
    );
    if (clash) {
      throw fault('validation', 'conflict', {
        path: 'script',
        reason: `@route ${route.config.method} ${route.config.path} (${route.handler ?? ''}) is already handled by script ${clash._id || 'itself'}.`,
      });
    }
  }
}
