/**
 * Export manifests (docs/configuration.md): which resources an export holds. A manifest names
 * sections, each selecting names by `includes` / `excludes` (a name, `*`, or `/regex/flags`):
 *
 *   { "objects": {"includes": ["*"]}, "roles": {"includes": ["*"], "excludes": ["administrator"]},
 *     "apps": {...}, "views": {...}, "scripts": {...}, "settings": {"includes": ["*"]}, "policies": {...},
 *     "configs": {...}, "c_conversation": {"includes": ["*"]} }
 *
 * `objects` may also be a list `[{"name": "c_conversation"}]`. Top-level `includes` / `excludes`
 * apply to every configuration section the manifest does not name itself. A section named after a
 * custom object type (or its collection) exports that type's records (selected by `_id`); records
 * are never exported unless named so. `env` is the original's name for `settings` (mdctl's import
 * looks for the settings document under it). `configs` selects scripts' config values by key
 * (config-values.ts).
 */
import { fault } from '../../../src-shared/faults.js';
import { compileRegex } from '../../../src-shared/query/regex.js';
import { CONFIG_SECTIONS, type ConfigSection } from '../../../src-shared/contracts/environment.js';

export { CONFIG_SECTIONS, type ConfigSection };

export interface Selector {
  includes: Matcher[];
  excludes: Matcher[];
}
type Matcher = (name: string) => boolean;

export interface Manifest {
  /** The manifest as given (echoed in the export's `manifest` document). */
  source: Record<string, unknown>;
  sections: Partial<Record<ConfigSection, Selector>>;
  /** Record sections: custom object type (as written) → selector of `_id`s. */
  records: Map<string, Selector>;
}

const IGNORED_KEYS = new Set(['object', 'includes', 'excludes', 'dependencies', 'exportOwner', 'importOwner']);

export function parseManifest(input: unknown): Manifest {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid('manifest', 'The manifest must be a JSON object.');
  }
  const source = input as Record<string, unknown>;
  const manifest: Manifest = { source, sections: {}, records: new Map() };
  const top = source.includes !== undefined ? selector(source, 'manifest') : undefined;
  for (const [given, value] of Object.entries(source)) {
    if (IGNORED_KEYS.has(given)) continue;
    const key = given === 'env' ? 'settings' : given;
    if ((CONFIG_SECTIONS as readonly string[]).includes(key)) {
      manifest.sections[key as ConfigSection] =
        key === 'objects' && Array.isArray(value) ? objectList(value) : selector(value, `manifest.${given}`);
    } else if (/^c_[a-z0-9_]+$/.test(key)) {
      manifest.records.set(key, selector(value, `manifest.${key}`));
    } else {
      throw invalid(
        `manifest.${key}`,
        `${key} is not a manifest section (${CONFIG_SECTIONS.join(', ')}, env or a c_ object).`,
      );
    }
  }
  if (top) for (const s of CONFIG_SECTIONS) manifest.sections[s] ??= top;
  return manifest;
}

export function selects(selector: Selector | undefined, name: string): boolean {
  if (!selector) return false;
  return selector.includes.some((m) => m(name)) && !selector.excludes.some((m) => m(name));
}

function objectList(value: unknown[]): Selector {
  const names = value.map((v, i) => {
    const name = typeof v === 'string' ? v : (v as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') throw invalid(`manifest.objects[${i}]`, 'Each entry names an object.');
    return name;
  });
  return { includes: names.map(matcher), excludes: [] };
}

function selector(value: unknown, path: string): Selector {
  if (value === true) return { includes: [() => true], excludes: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(path, 'A section is {"includes": [...], "excludes": [...]}.');
  }
  const { includes, excludes } = value as { includes?: unknown; excludes?: unknown };
  return { includes: list(includes, `${path}.includes`), excludes: list(excludes, `${path}.excludes`) };
}

function list(value: unknown, path: string): Matcher[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw invalid(path, 'includes and excludes are lists of names, * or /regex/flags.');
  }
  return value.map((v, i) => {
    try {
      return matcher(v);
    } catch {
      throw invalid(`${path}[${i}]`, `${v} is not a valid /regex/flags (RE2 syntax; flags i, m, s, x).`);
    }
  });
}

function matcher(text: string): Matcher {
  if (text === '*') return () => true;
  const re = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (re) {
    // RE2, as for $regex (docs/query-semantics.md): matching is linear in the name whatever the pattern, so a
    // selector such as /^(a+)+$/ against a long role code cannot stall the service. `g` and `y`
    // mean nothing for a yes/no match; `u` is how RE2 reads patterns anyway.
    const flags = re[2]!.replace(/[gyu]/g, '');
    if ([...flags].some((f) => !'imsx'.includes(f))) throw new Error('unsupported flag');
    const pattern = compileRegex({ source: re[1]!, flags });
    return (name) => pattern.test(name);
  }
  return (name) => name === text;
}

function invalid(path: string, reason: string) {
  return fault('invalidArgument', 'manifest', { path, reason });
}
