/**
 * The org's key/value configuration (`require('config')`) and counters (`require('counters')`),
 * kept in the org's settings (`scriptConfig`, `scriptCounters`), so they survive restarts. An
 * export carries the configuration as `config.<key>` resources, as mdctl does, and never the
 * counters (environment/config-values.ts). Keys are checked names; values are JSON, bounded in size.
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { MAX_SCRIPT_CONFIG_BYTES as MAX_CONFIG_BYTES, SCRIPT_CONFIG_KEY as KEY } from '../orgs/settings.js';
const MAX_COUNTERS = 10_000;

/** A key a script may use (`c_mdctl_plugins`, `ec__version`, …), or a fault. */
export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || !KEY.test(key) || key.includes('__proto__')) {
    throw fault('invalidArgument', 'key', { reason: 'Keys are 1 to 200 letters, digits, _ . : or -.' });
  }
  return key;
}

export class OrgConfigStore {
  constructor(
    private readonly svc: Service,
    private readonly org: Org,
  ) {}

  private current(): Org {
    return this.svc.orgs.byId(this.org.id) ?? this.org;
  }

  /** `config.get('key')` or `config.get('key.path.in.value')`; null when unset. */
  get(path: unknown): unknown {
    if (typeof path !== 'string') throw fault('invalidArgument', 'key', { reason: 'config.get(key) takes a key.' });
    const config = this.current().settings.scriptConfig ?? {};
    const dot = path.indexOf('.');
    const key = checkKey(dot === -1 ? path : path.slice(0, dot));
    let value: unknown = Object.hasOwn(config, key) ? config[key] : null;
    if (dot !== -1) {
      for (const part of path.slice(dot + 1).split('.')) {
        value =
          value !== null && typeof value === 'object' && Object.hasOwn(value, part)
            ? (value as Record<string, unknown>)[part]
            : null;
      }
    }
    return value ?? null;
  }

  /** Sets a key (null deletes it). */
  set(key: unknown, value: unknown): unknown {
    const k = checkKey(key);
    this.svc.orgs.updateSettings(this.org, (stored) => {
      const config = { ...(stored.scriptConfig ?? {}) };
      if (value === null || value === undefined) delete config[k];
      else config[k] = value;
      if (JSON.stringify(config).length > MAX_CONFIG_BYTES) {
        throw fault('tooLarge', 'config', { reason: 'An org keeps at most 1 MiB of configuration.' });
      }
      return { scriptConfig: config };
    });
    return value ?? null;
  }

  keys(): string[] {
    return Object.keys(this.current().settings.scriptConfig ?? {}).sort();
  }

  /** The counter's value, or null when it was never counted. */
  counterValue(key: unknown): number | null {
    const k = checkKey(key);
    return this.current().settings.scriptCounters?.[k] ?? null;
  }

  /** Adds `by` and answers the counter's new value (the first `next` answers 1). */
  counter(key: unknown, by: number): number {
    const k = checkKey(key);
    let value = 0;
    this.svc.orgs.updateSettings(this.org, (stored) => {
      const counters = { ...(stored.scriptCounters ?? {}) };
      value = (counters[k] ?? 0) + by;
      if (!Object.hasOwn(counters, k) && Object.keys(counters).length >= MAX_COUNTERS) {
        throw fault('tooLarge', 'counters', { reason: `An org keeps at most ${MAX_COUNTERS} counters.` });
      }
      counters[k] = value;
      return { scriptCounters: counters };
    });
    return value;
  }

  /** Deletes one counter (`byPrefix` false) or every counter whose key starts with `key`; the number deleted. */
  deleteCounters(key: string, byPrefix: boolean): number {
    let deleted = 0;
    this.svc.orgs.updateSettings(this.org, (stored) => {
      const counters = { ...(stored.scriptCounters ?? {}) };
      const doomed = Object.keys(counters).filter((k) => (byPrefix ? k.startsWith(key) : k === key));
      for (const k of doomed) delete counters[k];
      deleted = doomed.length;
      return deleted === 0 ? undefined : { scriptCounters: counters };
    });
    return deleted;
  }

  counters(): Record<string, number> {
    return { ...(this.current().settings.scriptCounters ?? {}) };
  }
}
