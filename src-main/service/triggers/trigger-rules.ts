/**
 * What a trigger script record must meet on every write (REST, the driver, scripts, import): an
 * event of TRIGGER_EVENTS, an object type of the org (its name or collection, or `*`) that
 * triggers fire for, and, when it names a principal, a usable account of the org — so a saved
 * trigger is one the engine will run, and a typo is refused at save rather than ignored at write.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { recordRules } from '../records/rules.js';
import { isTriggerEvent, TRIGGER_EVENTS, UNTRIGGERED_TYPES } from './registry.js';

export function assertTriggerConfig(svc: Service, org: Org, merged: Doc): void {
  if (merged.type !== 'trigger') return;
  const c = (
    typeof merged.configuration === 'object' && merged.configuration !== null ? merged.configuration : {}
  ) as Record<string, unknown>;
  if (!isTriggerEvent(c.event)) {
    throw fault('validation', 'invalidChoice', {
      path: 'configuration.event',
      reason: `A trigger's event is one of ${TRIGGER_EVENTS.join(', ')}.`,
    });
  }
  const object = typeof c.object === 'string' ? c.object : '';
  const def = object === '*' ? undefined : (svc.defs.byName(org.id, object) ?? svc.defs.byCollection(org.id, object));
  if (object !== '*' && (!def || UNTRIGGERED_TYPES.has(def.name))) {
    throw fault('validation', 'invalidReference', {
      path: 'configuration.object',
      reason: def
        ? `Triggers do not fire for ${def.name} records.`
        : `A trigger's object is an object type of this org (or *); ${object.slice(0, 64) || 'none'} is not.`,
    });
  }
  if (typeof c.principal === 'string' && c.principal !== '') {
    const found = lookupAccountPrincipal(svc, org, c.principal);
    if (!('principal' in found)) {
      throw fault('validation', 'invalidReference', { path: 'configuration.principal', reason: found.problem });
    }
  }
}

/** Makes every write of a script record check it (the one write path's record rules, records/rules.ts). */
export function registerTriggerRules(svc: Service): void {
  recordRules(svc).register('script', 'trigger-rules', ({ org, merged }) => assertTriggerConfig(svc, org, merged));
}
