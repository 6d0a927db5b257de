/**
 * Scripts' config values (`require('config')`, kept in the org setting `scriptConfig`) as the
 * original's environment exports hold them: one `{"object":"config","resource":"config.<key>",
 * "name":"<key>","value":…}` document per key, selected by the manifest's `configs` section and
 * written by mdctl to `env/configs/<key>.json` (docs/configuration.md). An import sets each key it
 * names and leaves the target's other keys alone (imports never delete).
 */
import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import type { Org } from '../orgs/orgs.js';
import { MAX_SCRIPT_CONFIG_BYTES, SCRIPT_CONFIG_KEY } from '../orgs/settings.js';
import { selects, type Manifest } from './manifest.js';
import type { ResourceDoc } from './resources.js';

export function exportConfigValues(org: Org, manifest: Manifest): ResourceDoc[] {
  const config = org.settings.scriptConfig ?? {};
  return Object.keys(config)
    .filter((key) => selects(manifest.sections.configs, key))
    .sort()
    .map((key) => ({ object: 'config', resource: `config.${key}`, name: key, value: config[key] }));
}

/**
 * Trust boundary: a `config.<key>` document of an import. The key must be one scripts may use and
 * the value JSON other than null (a script's `config.set(key, null)` deletes; an import never
 * does); the org's whole configuration stays within the bound scripts have. Called inside the
 * import's transaction (apply.ts).
 */
export function applyConfigValue(svc: Service, org: Org, doc: ResourceDoc): void {
  const key = doc.resource.slice('config.'.length);
  if (doc.name !== key) {
    throw invalid('name', `The resource is config.${key} but names ${String(doc.name)}.`);
  }
  if (!SCRIPT_CONFIG_KEY.test(key) || key.includes('__proto__')) {
    throw invalid('name', 'A config key is 1 to 200 letters, digits, _ . : or - (as scripts use).');
  }
  if (doc.value === undefined || doc.value === null) throw invalid('value', 'A config resource holds a value.');
  svc.orgs.updateSettings(org, (stored) => {
    const config = { ...(stored.scriptConfig ?? {}), [key]: doc.value };
    if (JSON.stringify(config).length > MAX_SCRIPT_CONFIG_BYTES) {
      throw fault('tooLarge', 'config', { path: 'value', reason: 'An org keeps at most 1 MiB of configuration.' });
    }
    return { scriptConfig: config };
  });
}

function invalid(path: string, reason: string) {
  return fault('validation', 'import', { path, reason });
}
