/**
 * Script-side decorator modules of the original (a module group, module-groups.ts: compiled the
 * first time a run requires one of them): `decorator-utils` (`decorate`, `isDescriptor`), `decorators` (`route`, `trigger`,
 * `job`, `log`, `policy`, `as`, `transform`), `decorators-transform` and `runtime.transform`.
 *
 * `@route`/`@trigger`/`@job` are read at save time from the syntax tree (language/registrations.ts)
 * and, when the library is evaluated in a run, record the decorated method here so that the run a
 * route dispatches (`require('runtime.route').run(...)`) can call it. `@log` times the method and
 * writes one console line. `@policy` records its method for `runtime.policy` (the request
 * policies, policies/ and docs/scripting.md#policies); `@transform` keeps the class usable:
 * environment-transform pipelines are not run by this service.
 */
export const DECORATOR_GROUP_BODY = String.raw`
  var accessor = require('util.paths.accessor');
  function isDescriptor(d) {
    if (!d || typeof d !== 'object') return false;
    return ['value', 'initializer', 'get', 'set'].some(function (k) { return hasOwn(d, k); });
  }
  // The decorator called bare (@x) gets (target, key, descriptor); called with options (@x(...))
  // it returns the decorator. handle(target, key, descriptor, options) either way.
  function decorate(handle, entryArgs) {
    if (isDescriptor(entryArgs[entryArgs.length - 1])) return handle.apply(null, entryArgs.concat([[]]));
    return function () { return handle.apply(null, Array.prototype.slice.call(arguments).concat([entryArgs])); };
  }
  builtin('decorator-utils', function () { return freeze({ decorate: decorate, isDescriptor: isDescriptor }); });

  var runtimeRegistry = [];
  function registering(type) {
    return function () {
      var args = Array.prototype.slice.call(arguments);
      return decorate(function (target, key, descriptor, options) {
        var isStatic = typeof target === 'function';
        runtimeRegistry.push({ type: type, Class: isStatic ? target : target.constructor, methodName: key, isStatic: isStatic, options: options });
        return descriptor;
      }, args);
    };
  }

  function logDecorator() {
    return decorate(function (target, key, descriptor, options) {
      var fn = descriptor.value;
      if (typeof fn !== 'function') throw new TypeError('@log can only be used on class functions');
      var o = options[0] || {};
      var level = ['warn', 'error', 'info', 'debug', 'trace'].indexOf(o.level) !== -1 ? o.level : 'info';
      var className = typeof target === 'function' ? target.name : target.constructor.name;
      return assign({}, descriptor, { value: function () {
        var started = Date.now(), err, result;
        try { result = fn.apply(this, arguments); } catch (e) { err = e; }
        if (!o.traceOnlyErrors || err) {
          var line = { className: className, methodName: key, ms: Date.now() - started };
          if (err && o.traceError) line.err = err && err.toJSON ? err.toJSON() : String(err);
          if (!err && o.traceResult) line.result = result;
          (consoleObj[level] || consoleObj.info)(line);
        }
        if (err) throw err;
        return result;
      } });
    }, Array.prototype.slice.call(arguments));
  }

  function asDecorator() {
    return decorate(function (target, key, descriptor, options) {
      var fn = descriptor.value;
      return assign({}, descriptor, { value: function () {
        var self = this, args = arguments;
        return script.as(options[0], options[1] || {}, function () { return fn.apply(self, args); });
      } });
    }, Array.prototype.slice.call(arguments));
  }

  function passThrough() {
    var args = Array.prototype.slice.call(arguments);
    if (args.length === 1 && typeof args[0] === 'function') return args[0];
    if (args.length === 3 && isDescriptor(args[2])) return args[2];
    return function (t, k, d) { return d === undefined ? t : d; };
  }

  class Transform {
    error(err) { throw err; }
    beforeAll() {}
    before() {}
    each(value) { return value; }
    after() {}
    afterAll() {}
  }

  builtin('decorators', function () {
    return freeze({ route: registering('route'), trigger: registering('trigger'), job: registering('job'),
      log: logDecorator, as: asDecorator, policy: registering('policy'), transform: passThrough, object: passThrough, acl: passThrough });
  });
  builtin('decorators-transform', function () {
    return freeze({ transform: passThrough, error: passThrough, beforeAll: passThrough, before: passThrough, each: passThrough, after: passThrough, afterAll: passThrough });
  });
  builtin('runtime.transform', function () {
    return freeze({ Transform: Transform, Runtime: freeze({ createDecorator: function () { return passThrough; } }) });
  });

  // The method a library's @route/@trigger/@job decorated: evaluate the library (its decorators
  // record their methods in runtimeRegistry), find the method, and the object to call it on.
  function registered(type, spec) {
    loadLibrary('id', spec.id);
    var found = runtimeRegistry.filter(function (r) {
      return r.type === type && r.methodName === spec.methodName && r.isStatic === spec.static && r.Class.name === spec.className;
    })[0];
    if (!found) throw Fault.create('service.notFound.' + type, { reason: 'The library no longer registers ' + spec.className + '.' + spec.methodName + '.' });
    return { target: found.isStatic ? found.Class : new found.Class(), methodName: found.methodName };
  }

  // A decorator-registered route (routes/script-routes.ts): called as the original does with
  // {req, res, body, next, runtime}.
  builtin('runtime.route', function () {
    return freeze({ run: function (spec) {
      var m = registered('route', spec);
      var req = require('request'), res = require('response');
      var body = accessor(req.body);
      return m.target[m.methodName]({ req: req, res: res, body: body, next: res.next, runtime: spec.runtime || {} });
    } });
  });

  // A decorator-registered trigger (issue 41, triggers/decorated.ts): called with what a trigger
  // script reads from script.arguments and script.context, and the original's body(path) /
  // body(path, value) accessor of the record (a write changes it, before triggers only); returning
  // false cancels, as there.
  builtin('runtime.trigger', function () {
    return freeze({ run: function (spec) {
      var m = registered('trigger', spec);
      var a = script.arguments || {}, context = script.context;
      function body(path, value) {
        if (arguments.length > 1) { context.update(path, value); return value; }
        return context.read(path);
      }
      return m.target[m.methodName]({ context: context, new: a.new, old: a.old, modified: a.modified,
        event: a.event, dryRun: a.dryRun, memo: a.memo, body: body, runtime: spec.runtime || {} });
    } });
  });

  // A library's @policy method with the Script action (policies/run-policy.ts): called as the
  // original does with {req, res, body, halt, runtime}. body(path, value) changes the body the
  // route reads; halt() ends the evaluation of the org's policies and lets the request go on.
  builtin('runtime.policy', function () {
    return freeze({ run: function (spec) {
      var m = registered('policy', spec);
      var req = require('request'), res = require('response');
      var current = req.body === undefined || req.body === null ? null : JSON.parse(stringify(req.body));
      var read = accessor(current);
      function body(path, value) {
        if (arguments.length > 1) {
          if (current === null || typeof current !== 'object') { current = {}; read = accessor(current); }
          read(path, value);
          call('policy.body', current);
          return value;
        }
        return arguments.length === 0 ? read() : read(path);
      }
      function halt() { call('policy.halt'); }
      return m.target[m.methodName]({ req: req, res: res, body: body, halt: halt, runtime: spec.runtime || {} });
    } });
  });

  // A decorator-registered job (issue 41, jobs/registry.ts): called with {runtime}.
  builtin('runtime.job', function () {
    return freeze({ run: function (spec) {
      var m = registered('job', spec);
      return m.target[m.methodName]({ runtime: spec.runtime || {} });
    } });
  });
`;
