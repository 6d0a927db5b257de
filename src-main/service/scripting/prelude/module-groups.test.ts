/** Every built-in module group is valid JavaScript and declares the modules the description lists. */
import { describe, expect, it } from 'vitest';
import { MODULE_TABLE } from '../../../../src-shared/scripting/api-description.js';
import { PRELUDE_SOURCE } from '../prelude.js';
import { BUNDLED_FILES, bundledSource } from '../bundled-libraries.js';
import { MODULE_GROUP_OF, moduleGroupSource } from './module-groups.js';

describe('module groups', () => {
  it('each group parses (a syntax error there would surface as a confusing script error)', () => {
    for (const group of new Set(Object.values(MODULE_GROUP_OF))) {
      expect(() => new Function(`return ${moduleGroupSource(group) ?? ''}`), group).not.toThrow();
    }
    expect(() => new Function(`return ${PRELUDE_SOURCE}`)).not.toThrow();
    expect(moduleGroupSource('nothing')).toBeUndefined();
  });

  it('keeps the bundled libraries out of the prelude: a run that requires none compiles none', () => {
    for (const name of Object.keys(BUNDLED_FILES)) {
      const text = bundledSource(name) ?? '';
      expect(text.length, name).toBeGreaterThan(5000);
      expect(PRELUDE_SOURCE.includes(text.slice(1000, 1200)), name).toBe(false);
    }
    expect(PRELUDE_SOURCE.length).toBeLessThan(60_000);
  });

  it('every module the description offers is built in, bundled or in the prelude', () => {
    const inPrelude = ['request', 'response', 'objects', 'accounts', 'consts'];
    for (const m of MODULE_TABLE.filter((x) => x.status !== 'refused')) {
      const where =
        MODULE_GROUP_OF[m.name] ??
        (BUNDLED_FILES[m.name] ? 'bundled' : inPrelude.includes(m.name) ? 'prelude' : undefined);
      expect(where, m.name).toBeDefined();
    }
  });
});
