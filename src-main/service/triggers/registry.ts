/**
 * The org's trigger table: every active trigger, from script records of `type: "trigger"`
 * (`configuration: {object, event, principal, inline}`, `weight`) and from active libraries'
 * `@trigger` methods (decorated.ts), ordered by weight (highest
 * first, then `_id`). Built once and kept until the org's script records change
 * (scripting/script-generation.ts), so a write looks its triggers up in memory: a write with no
 * trigger on its object costs one map lookup, never a query.
 */
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import type { Doc } from '../objects/validate.js';
import { scriptGeneration } from '../scripting/script-generation.js';
import { isTriggerEvent, UNTRIGGERED_TYPES, type TriggerDef, type TriggerEvent } from './trigger-def.js';
import { triggerPathsOf } from './trigger-paths.js';
import { decoratedTriggers, triggerObject } from './decorated.js';

export {
  isTriggerEvent,
  TRIGGER_EVENTS,
  UNTRIGGERED_TYPES,
  type TriggerDef,
  type TriggerEvent,
} from './trigger-def.js';

/** A trigger record's definition, or undefined when it is not an active, well-formed trigger. */
export function triggerOfRecord(svc: Service, org: Org, _id: string, doc: Doc): TriggerDef | undefined {
  if (doc.type !== 'trigger' || doc.active === false || typeof doc.script !== 'string') return undefined;
  const c = (doc.configuration ?? {}) as Record<string, unknown>;
  if (!isTriggerEvent(c.event)) return undefined;
  // A collection name (`c_things`) stands for its type, as object names do everywhere else.
  const object = triggerObject(svc, org, c.object);
  if (!object) return undefined;
  const label = [doc.label, doc.name].find((v): v is string => typeof v === 'string' && v !== '') ?? _id;
  return {
    scriptId: _id,
    label,
    object,
    event: c.event,
    weight: typeof doc.weight === 'number' && Number.isFinite(doc.weight) ? doc.weight : 0,
    ...(typeof c.principal === 'string' && c.principal !== '' ? { principal: c.principal } : {}),
    inline: c.event.endsWith('.before') || c.inline === true,
    source: doc.script,
    ...triggerPathsOf(c.paths),
  };
}

interface Table {
  generation: string;
  triggers: TriggerDef[];
  /** By `<object> <event>`, `*` triggers merged in, in run order. */
  lookups: Map<string, TriggerDef[]>;
}

const tables = new WeakMap<Service, Map<number, Table>>();

function build(svc: Service, org: Org, generation: string): Table {
  const triggers: TriggerDef[] = [];
  const def = svc.defs.byName(org.id, 'script');
  if (def) {
    for (const record of svc.store.iterate(org.id, def, { sort: [], skip: 0, limit: 0 })) {
      const trigger = triggerOfRecord(svc, org, record._id, record.doc);
      if (trigger) triggers.push(trigger);
    }
  }
  triggers.push(...decoratedTriggers(svc, org));
  triggers.sort((a, b) => b.weight - a.weight || (a.scriptId < b.scriptId ? -1 : a.scriptId > b.scriptId ? 1 : 0));
  return { generation, triggers, lookups: new Map() };
}

/** Every active trigger of the org, in run order. */
export function orgTriggers(svc: Service, org: Org): TriggerDef[] {
  return table(svc, org).triggers;
}

function table(svc: Service, org: Org): Table {
  let byOrg = tables.get(svc);
  if (!byOrg) tables.set(svc, (byOrg = new Map()));
  const generation = scriptGeneration(svc, org.id);
  let t = byOrg.get(org.id);
  if (!t || t.generation !== generation) byOrg.set(org.id, (t = build(svc, org, generation)));
  return t;
}

/** The triggers a write of `objectName` fires for `event`, in run order (empty for most writes). */
export function triggersFor(svc: Service, org: Org, objectName: string, event: TriggerEvent): readonly TriggerDef[] {
  if (UNTRIGGERED_TYPES.has(objectName)) return [];
  const t = table(svc, org);
  if (t.triggers.length === 0) return [];
  const key = `${objectName} ${event}`;
  let found = t.lookups.get(key);
  if (!found) {
    found = t.triggers.filter((tr) => tr.event === event && (tr.object === objectName || tr.object === '*'));
    t.lookups.set(key, found);
  }
  return found;
}
