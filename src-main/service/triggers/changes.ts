/**
 * What before triggers change in the record being written: `script.arguments.new.update(path,
 * value)`, `script.context.update(...)`, `update({...})` and plain assignments to
 * `script.arguments.new.<property>` (prelude-trigger.ts) each reach the host as one change. They
 * are gathered here — bounded, every path checked — and turned into top-level property values,
 * which the write then validates against the definition like any other value it writes.
 */
import { fault } from '../../../src-shared/faults.js';
import { PATH_SEGMENT_PATTERN } from '../../../src-shared/schema/types.js';
import type { Doc, Json } from '../objects/validate.js';

/** Changes one trigger run may make. */
export const MAX_TRIGGER_CHANGES = 500;
const MAX_PATH_SEGMENTS = 8;

export interface TriggerChange {
  path: string[];
  value: Json;
}

/** Trust boundary: a path and value a trigger script sent. */
export function parseChange(path: unknown, value: unknown): TriggerChange {
  if (typeof path !== 'string' || path.length === 0 || path.length > 512) {
    throw fault('invalidArgument', 'trigger.update', { reason: 'update(path, value) takes a property path.' });
  }
  const segments = path.replace(/\//g, '.').split('.');
  if (segments.length > MAX_PATH_SEGMENTS || segments.some((s) => !PATH_SEGMENT_PATTERN.test(s))) {
    throw fault('invalidArgument', 'trigger.update', {
      path,
      reason: `${path.slice(0, 100)} is not a property path.`,
    });
  }
  return { path: segments, value: (value === undefined ? null : value) as Json };
}

export class TriggerChanges {
  readonly list: TriggerChange[] = [];

  /** `update(path, value)`, or `update({a: 1, b: 2})` (path null): one change per key. */
  add(path: unknown, value: unknown): void {
    const changes =
      path === null && typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.entries(value).map(([k, v]) => parseChange(k, v))
        : [parseChange(path, value)];
    if (this.list.length + changes.length > MAX_TRIGGER_CHANGES) {
      throw fault('tooLarge', 'trigger.update', { reason: `A trigger makes at most ${MAX_TRIGGER_CHANGES} changes.` });
    }
    this.list.push(...changes);
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  /**
   * The top-level values the changes give `doc` (the record as it would be stored): a nested path
   * changes a copy of its top-level property. `doc` itself is not touched.
   */
  topLevelValues(doc: Doc): Record<string, Json> {
    const out: Record<string, Json> = {};
    for (const { path, value } of this.list) {
      const [top, ...rest] = path as [string, ...string[]];
      if (rest.length === 0) {
        out[top] = value;
        continue;
      }
      const base = top in out ? out[top] : doc[top];
      const copy = isObject(base) ? (structuredClone(base) as Record<string, Json>) : {};
      let node: Record<string, Json> = copy;
      for (const seg of rest.slice(0, -1)) {
        const next = node[seg];
        node = node[seg] = isObject(next) ? next : {};
      }
      node[rest[rest.length - 1]!] = value;
      out[top] = copy;
    }
    return out;
  }
}

function isObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
