/**
 * A trigger's options may name a constant of a library it imports (or of its own library): read
 * from the saved sources' syntax trees when it is a literal there, left for the `if` to refuse
 * otherwise (trigger-condition.test.ts shows the refusal on save).
 */
import { describe, expect, it } from 'vitest';
import { resolveConstants } from './imported-constants.js';

const LIBRARIES: Record<string, string> = {
  c_default: "export default { KEYS: { PUBLISH: 'publish_', LIMIT: 3 }, LIST: ['a'] }",
  c_cjs: "const KEYS = { PUBLISH: 'cjs_' }\nmodule.exports = { KEYS, OTHER: KEYS }",
  c_class:
    "class Config {\n  static KEYS = { PUBLISH: 'class_' }\n  static NOW = Date.now()\n}\nmodule.exports = Config",
  c_named: "export const PREFIX = 'named_'\nexports.LATER = 'later_'",
  c_dynamic: "export default { KEYS: { PUBLISH: 'p_' + Math.random() } }",
};
const libraries = (name: string) => LIBRARIES[name];
const expression = (text: string) => ({ $expression: text });
const resolve = (source: string, text: string) =>
  resolveConstants({ $concat: [expression(text), '$_id'] }, source, libraries);

describe('resolveConstants', () => {
  it.each([
    ["import LinkedFields from 'c_default'", 'LinkedFields.KEYS.PUBLISH', 'publish_'],
    ["import LinkedFields from 'c_default'", 'LinkedFields.KEYS.LIMIT', 3],
    ["import LinkedFields from 'c_default'", 'LinkedFields.LIST', ['a']],
    ["import * as L from 'c_named'", 'L.PREFIX', 'named_'],
    ["import { PREFIX } from 'c_named'", 'PREFIX', 'named_'],
    ["import { LATER as Later } from 'c_named'", 'Later', 'later_'],
    ["const C = require('c_cjs')", 'C.KEYS.PUBLISH', 'cjs_'],
    ["const C = require('c_cjs')", 'C.OTHER.PUBLISH', 'cjs_'],
    ["const { KEYS } = require('c_cjs')", 'KEYS.PUBLISH', 'cjs_'],
    ["const Config = require('c_class')", 'Config.KEYS.PUBLISH', 'class_'],
    ["const OWN = { KEYS: { PUBLISH: 'own_' } }", 'OWN.KEYS.PUBLISH', 'own_'],
  ])('%s: %s reads %j', (source, text, value) => {
    expect(resolve(source, text)).toEqual({ $concat: [value, '$_id'] });
  });

  it.each([
    ["import LinkedFields from 'c_default'", 'LinkedFields.KEYS.NOTHING'],
    ["import L from 'c_dynamic'", 'L.KEYS.PUBLISH'],
    ["const Config = require('c_class')", 'Config.NOW'],
    ["import L from 'c_missing'", 'L.KEYS.PUBLISH'],
    ['', 'Unbound.KEYS'],
    ["import L from 'c_default'", 'L.KEYS.PUBLISH + 1'],
    ["import L from 'c_default'", "L['KEYS']"],
    ['let own = { A: 1 }', 'own.A'],
  ])('%s: %s stays an expression', (source, text) => {
    expect(resolve(source, text)).toEqual({ $concat: [expression(text), '$_id'] });
  });

  it('a source that does not parse resolves nothing', () => {
    expect(resolveConstants(expression('A.B'), 'import A from', libraries)).toEqual(expression('A.B'));
  });
});
