/**
 * What a trigger script record must meet on every write (REST, the driver, scripts, import): an
 * event of TRIGGER_EVENTS, an object type of the org (its name or collection, or `*`) that
 * triggers fire for, and, when it names a principal, a usable account of the org — so a saved
 * trigger is one the engine will run, and a typo is refused at save rather than ignored at write.
 */
import { fault, FaultError } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { lookupAccountPrincipal } from '../apps/principal.js';
import { recordRules } from '../records/rules.js';
import { isTriggerEvent, TRIGGER_EVENTS, UNTRIGGERED_TYPES } from './registry.js';
import { compileScript } from '../scripting/language/compiled-cache.js';
import { parseTriggerCondition, TRIGGER_OPTIONS } from './trigger-condition.js';
import { triggerPathsProblem } from './trigger-paths.js';
import { triggerObject } from './decorated.js';
import { orgLibrarySources, resolveConstants, type LibrarySource } from './imported-constants.js';

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
  const pathsProblem = triggerPathsProblem(c.paths);
  if (pathsProblem) throw fault('validation', 'invalidArgument', { path: 'configuration.paths', reason: pathsProblem });
  if (typeof c.principal === 'string' && c.principal !== '') {
    const found = lookupAccountPrincipal(svc, org, c.principal);
    if (!('principal' in found)) {
      throw fault('validation', 'invalidReference', { path: 'configuration.principal', reason: found.problem });
    }
  }
}

/**
 * A library's `@trigger` options are ones this service reads (trigger-condition.ts
 * TRIGGER_OPTIONS), and its `if` reads as an expression over its object's properties (the
 * constants it names read from the libraries it imports, imported-constants.ts): anything
 * else refuses the save, naming the line, rather than a trigger that ignores what it was told.
 */
export function assertDecoratedTriggers(svc: Service, org: Org, merged: Doc): void {
  if (merged.type !== 'library' || typeof merged.script !== 'string') return;
  const compiled = compileScript(merged.script);
  if (!compiled.ok) return; // the script rules name the syntax error
  let libraries: LibrarySource | undefined;
  for (const reg of compiled.registrations.filter((r) => r.type === 'trigger')) {
    const { className, methodName, loc } = reg.metadata;
    const at = `Line ${loc.line}, column ${loc.column}: @trigger ${className}.${methodName}`;
    const unknown = Object.keys(reg.configuration).find((k) => !TRIGGER_OPTIONS.has(k));
    if (unknown !== undefined) {
      throw fault('validation', 'script', {
        path: 'script',
        reason: `${at}: the option ${unknown.slice(0, 40)} is not supported (${[...TRIGGER_OPTIONS].join(', ')}).`,
      });
    }
    const pathsProblem = triggerPathsProblem(reg.configuration.paths);
    if (pathsProblem) throw fault('validation', 'script', { path: 'script', reason: `${at}: paths: ${pathsProblem}` });
    if (reg.configuration.if === undefined) continue;
    libraries ??= orgLibrarySources(svc, org);
    const object = triggerObject(svc, org, reg.configuration.object);
    const def = object && object !== '*' ? svc.defs.byName(org.id, object) : undefined;
    try {
      if (!def) throw fault('validation', 'trigger.if', { reason: 'an if needs one object type of this org (not *).' });
      parseTriggerCondition(def, resolveConstants(reg.configuration.if, merged.script, libraries));
    } catch (e) {
      const reason = e instanceof FaultError ? (e.fault.reason ?? e.fault.message) : String(e);
      throw fault('validation', 'script', { path: 'script', reason: `${at}: if: ${reason}` });
    }
  }
}

/** Makes every write of a script record check it (the one write path's record rules, records/rules.ts). */
export function registerTriggerRules(svc: Service): void {
  recordRules(svc).register('script', 'trigger-rules', ({ org, merged }) => {
    assertTriggerConfig(svc, org, merged);
    assertDecoratedTriggers(svc, org, merged);
  });
}
