/** What a trigger is, from a `type: "trigger"` record (registry.ts) or a library's `@trigger` (decorated.ts). */
import type { TriggerCondition } from './trigger-condition.js';

export const TRIGGER_EVENTS = [
  'create.before',
  'create.after',
  'update.before',
  'update.after',
  'delete.before',
  'delete.after',
] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/**
 * Types no trigger fires for: the service's own records, and configuration (the original fires
 * none on scripts, views and objects unless an org asks for "configuration triggers"; here a
 * trigger that saves a script could otherwise fire itself).
 */
export const UNTRIGGERED_TYPES: ReadonlySet<string> = new Set(['log', 'audit', 'script', 'view', 'deployment']);

export interface TriggerDef {
  scriptId: string;
  label: string;
  /** An object type name, or `*` for every type. */
  object: string;
  event: TriggerEvent;
  weight: number;
  /** Run as this account (`_id` or email); absent: as the account that writes. */
  principal?: string;
  /** Before triggers always; an after trigger when its configuration says so. */
  inline: boolean;
  source: string;
  /** A library's decorated method (`Class.method`); absent for trigger records. */
  handler?: string;
  /** A decorated trigger's `if` (trigger-condition.ts): it runs only for records it holds for. */
  condition?: TriggerCondition;
  /** A trigger record's `configuration.paths` (trigger-paths.ts): it runs on updates touching one. */
  paths?: readonly string[];
}

export const isTriggerEvent = (value: unknown): value is TriggerEvent =>
  typeof value === 'string' && (TRIGGER_EVENTS as readonly string[]).includes(value);
