/**
 * Triggers that libraries register with the original's `@trigger(event…, {object, weight,
 * principal, inline, active, name})` (issue 41): read at save from the syntax tree
 * (scripting/language/registrations.ts), each becomes a trigger of the org's table like a
 * `type: "trigger"` record, and its run evaluates the library and calls the decorated method
 * (`runtime.trigger` in the prelude) with `{context, new, old, modified, event, dryRun, memo, runtime}`.
 * Only active libraries count. An `if` is kept parsed (trigger-condition.ts; checked at save, so a
 * fault here means the object's schema, or a constant it names in another library
 * (imported-constants.ts), changed since: the trigger then answers that fault).
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { ScriptRegistration } from '../scripting/language/registrations.js';
import { libraryRegistrations, libraryScripts, type LibraryScript } from '../scripting/host-library.js';
import { dispatchSource } from '../scripting/decorator-routes.js';
import { isTriggerEvent, type TriggerDef } from './trigger-def.js';
import { triggerCondition, TRIGGER_OPTIONS } from './trigger-condition.js';
import { triggerPathsOf } from './trigger-paths.js';
import { orgLibrarySources, resolveConstants, type LibrarySource } from './imported-constants.js';

/** An option this service does not read (refused at save; a library saved before that rule answers it). */
const unreadOption = (c: Record<string, unknown>) => Object.keys(c).find((k) => !TRIGGER_OPTIONS.has(k));

/** The object type a trigger names (`*`, a type name or its collection), or undefined. */
export function triggerObject(svc: Service, org: Org, object: unknown): string | undefined {
  if (object === '*') return '*';
  if (typeof object !== 'string' || object === '') return undefined;
  return (svc.defs.byName(org.id, object) ?? svc.defs.byCollection(org.id, object))?.name;
}

export function triggerOfRegistration(
  svc: Service,
  org: Org,
  lib: LibraryScript,
  reg: ScriptRegistration,
  libraries: LibrarySource = orgLibrarySources(svc, org),
): TriggerDef | undefined {
  const c = reg.configuration;
  if (reg.type !== 'trigger' || !isTriggerEvent(c.event) || c.active === false) return undefined;
  const object = triggerObject(svc, org, c.object);
  if (!object) return undefined;
  const handler = `${reg.metadata.className}.${reg.metadata.methodName}`;
  return {
    scriptId: lib._id,
    label: typeof reg.name === 'string' && reg.name !== '' ? reg.name : handler,
    object,
    event: c.event,
    weight: reg.weight,
    ...(typeof c.principal === 'string' && c.principal !== '' ? { principal: c.principal } : {}),
    inline: c.event.endsWith('.before') || c.inline === true,
    source: dispatchSource(lib, reg),
    handler,
    ...triggerPathsOf(c.paths),
    ...(c.if !== undefined || unreadOption(c) !== undefined
      ? {
          condition: triggerCondition(
            object === '*' ? undefined : svc.defs.byName(org.id, object),
            resolveConstants(c.if, lib.source, libraries),
            unreadOption(c),
          ),
        }
      : {}),
  };
}

/** Every trigger the org's active libraries register. */
export function decoratedTriggers(svc: Service, org: Org): TriggerDef[] {
  const libraries = orgLibrarySources(svc, org);
  return libraryScripts(svc, org)
    .filter((lib) => lib.active)
    .flatMap((lib) =>
      libraryRegistrations(lib).flatMap((reg) => triggerOfRegistration(svc, org, lib, reg, libraries) ?? []),
    );
}
