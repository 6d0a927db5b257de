/**
 * The sandbox's module system (JavaScript evaluated inside the prelude's closure). `require(name)`
 * resolves, in order: a built-in module of the original (BUILTINS, defined by the other prelude
 * parts), a bundled library (`should`, `moment`, `lodash`, `bignumber`, …: their published builds,
 * evaluated on first use in the run), a module the original has and this service deliberately
 * lacks (`service.notImplemented.module`, naming it and why), then a library script of the org
 * by its export name (`configuration.export`), fetched compiled from the host. Each is evaluated
 * once per run; a library being evaluated is already in the cache, so cycles see its partial
 * `module.exports` as CommonJS does.
 *
 * Built-in modules written in JavaScript (module-groups.ts) are not part of the prelude: their
 * text is handed out by the worker and compiled the first time a run requires one, so a run that
 * requires nothing pays only for this small loader (QuickJS compiles eagerly).
 *
 * Natives consumed (and removed from the global object by the prelude):
 *   __compile(text, filename) → the value of evaluating text (a wrapper function)
 *   __builtin(name)           → a bundled library's or a module group's source text, or undefined
 */
import { MODULE_TABLE } from '../../../../src-shared/scripting/api-description.js';
import { MODULE_GROUP_OF } from './module-groups.js';

const REFUSED = Object.fromEntries(
  MODULE_TABLE.filter((m) => m.status === 'refused').map((m) => [m.name, m.reason ?? 'Not offered.']),
);
const BUNDLED = MODULE_TABLE.filter((m) => m.status === 'bundled').map((m) => m.name);

/** Parameters of every script and library function: the original's globals, as arguments. */
export const SCRIPT_GLOBALS = 'script, console, require, org, consts, Fault, sys, global, CortexObject, ServiceObject';

export const REQUIRE_SOURCE =
  String.raw`
  var compileNative = g.__compile, builtinNative = g.__builtin;
  delete g.__compile; delete g.__builtin;
  // Parsed only when a name is not found elsewhere: a string constant costs nothing to compile.
  var REFUSED_JSON = ` +
  JSON.stringify(JSON.stringify(REFUSED)) +
  String.raw`, REFUSED;
  var BUNDLED = ` +
  JSON.stringify(BUNDLED) +
  String.raw`;
  var GROUP_OF = ` +
  JSON.stringify(MODULE_GROUP_OF) +
  String.raw`;
  var groups = {};
  var BUILTINS = {};
  var moduleCache = {};
  var librariesById = {};
  var hasOwn = Function.prototype.call.bind(Object.prototype.hasOwnProperty);

  function builtin(name, factory) { BUILTINS[name] = factory; }

  // What module groups see of the prelude (never handed to scripts).
  function internals() {
    return { call: call, ctx: ctx, consoleObj: consoleObj, script: script, org: org, objects: objects, consts: consts,
      Fault: Fault, freeze: freeze, assign: assign, hasOwn: hasOwn, stringify: stringify, isArray: isArray,
      defineProperty: defineProperty, loadLibrary: loadLibrary, require: require, g: g };
  }
  function loadGroup(group) {
    if (!groups[group]) {
      var text = builtinNative('group:' + group);
      if (typeof text !== 'string') throw Fault.create('service.error.module', { reason: 'The module group ' + group + ' is missing from this build.' });
      groups[group] = compileNative(text, 'module.' + group)(internals());
    }
    return groups[group];
  }

  function loadBundled(name) {
    var text = builtinNative(name);
    if (typeof text !== 'string') throw Fault.create('service.error.module', { reason: 'The bundled module ' + name + ' is missing from this build.' });
    // require: a UMD build that needs another module (moment-timezone needs moment) gets the run's.
    var fn = compileNative('(function (module, exports, global, define, require) {' + text + '\n})', 'lib.' + name);
    var module = { exports: {} };
    fn.call(module.exports, module, module.exports, g, undefined, require);
    return module.exports;
  }

  // Library scripts run in a CommonJS wrapper whose parameters are also the original's globals.
  function evaluateLibrary(found) {
    var module = { id: found.id, exports: {}, loaded: false };
    librariesById[found.id] = module;
    if (found.name) moduleCache[found.name] = module;
    var fn = compileNative('(function (exports, module, __filename, __dirname, ` +
  SCRIPT_GLOBALS +
  String.raw`) {' + found.code + '\n})', 'Library.' + (found.name || found.id));
    try {
      fn.call(module.exports, module.exports, module, found.name || found.id, '', script, consoleObj, require, org, consts, Fault, sys, globalProxy, ServiceObject, ServiceObject);
    } catch (e) {
      delete librariesById[found.id];
      if (found.name) delete moduleCache[found.name];
      throw e;
    }
    module.loaded = true;
    return module;
  }

  function loadLibrary(by, key) {
    if (by === 'id' && librariesById[key]) return librariesById[key].exports;
    var found = call('library.load', by, key);
    if (librariesById[found.id]) return librariesById[found.id].exports;
    return evaluateLibrary(found).exports;
  }

  function require(name) {
    if (typeof name !== 'string' || name === '') throw new TypeError('require expects a single string argument');
    if (hasOwn(moduleCache, name)) return moduleCache[name].exports;
    if (hasOwn(BUILTINS, name)) {
      var m = { exports: undefined };
      moduleCache[name] = m;
      try { m.exports = BUILTINS[name](); } catch (e) { delete moduleCache[name]; throw e; }
      return m.exports;
    }
    if (hasOwn(GROUP_OF, name)) {
      var gm = { exports: undefined };
      moduleCache[name] = gm;
      try { gm.exports = loadGroup(GROUP_OF[name])[name]; } catch (e) { delete moduleCache[name]; throw e; }
      return gm.exports;
    }
    if (BUNDLED.indexOf(name) !== -1) {
      var b = { exports: loadBundled(name) };
      moduleCache[name] = b;
      return b.exports;
    }
    REFUSED = REFUSED || parse(REFUSED_JSON);
    if (hasOwn(REFUSED, name)) {
      throw Fault.create('service.notImplemented.module', { reason: "The module '" + name + "' is not offered here: " + REFUSED[name], path: name });
    }
    return loadLibrary('export', name);
  }
`;
