/**
 * The built-in modules written in JavaScript, in groups compiled together the first time a run
 * requires one of their modules (prelude/require.ts `loadGroup`). The sandbox worker hands out a
 * group's text through `__builtin('group:<name>')`; each group is a function of the prelude's
 * internals returning its modules, each built on first access.
 */
import { DECORATOR_GROUP_BODY } from './decorator-modules.js';
import { HOST_GROUP_BODY, HTTP_GROUP_BODY } from './host-modules.js';
import { UTIL_GROUP_BODY } from './util-modules.js';

const BODIES: Readonly<Record<string, string>> = {
  util: UTIL_GROUP_BODY,
  decorators: DECORATOR_GROUP_BODY,
  host: HOST_GROUP_BODY,
  http: HTTP_GROUP_BODY,
};

const HEADER = [
  'var call = I.call, ctx = I.ctx, consoleObj = I.consoleObj, script = I.script, org = I.org, objects = I.objects;',
  'var consts = I.consts, Fault = I.Fault, freeze = I.freeze, assign = I.assign, hasOwn = I.hasOwn;',
  'var stringify = I.stringify, isArray = I.isArray, defineProperty = I.defineProperty;',
  'var loadLibrary = I.loadLibrary, require = I.require, g = I.g;',
  'var exported = {}, built = {};',
  // Each module is built on first access: a refusing factory (http off) fails only its own require.
  'function builtin(name, factory) {',
  '  defineProperty(exported, name, { enumerable: true, get: function () {',
  '    if (!hasOwn(built, name)) built[name] = factory();',
  '    return built[name];',
  '  } });',
  '}',
].join('\n');

/** The module names of each group, read from its `builtin('<name>', …)` declarations. */
export const MODULE_GROUP_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(BODIES).flatMap(([group, body]) =>
    [...body.matchAll(/\bbuiltin\('([^']+)'/g)].map((m) => [m[1] as string, group]),
  ),
);

/** The text `__compile` turns into the group's function, or undefined for an unknown group. */
export function moduleGroupSource(group: string): string | undefined {
  const body = Object.hasOwn(BODIES, group) ? BODIES[group] : undefined;
  return body === undefined ? undefined : `(function (I) {\n${HEADER}\n${body}\nreturn exported;\n})`;
}
