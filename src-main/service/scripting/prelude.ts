/**
 * The script-side API, as JavaScript evaluated inside each fresh QuickJS context before the
 * script. It is built only from three native functions the worker installs (and this prelude
 * removes from the global object at once):
 *   __host(name, argsJson, asJson) → reply JSON `{ok, value}` / `{ok:false, fault}` (one host call)
 *   __log(level, text)              (console capture, counted against maxConsoleBytes)
 *   __exit(valueJson)               (script.exit)
 * and the run's context, as the JSON text `start` is called with. Every data operation ends in ONE generic host call
 * `driver(objectName, operation, options)` with the driver API's option names, so the service can
 * plug its real access layer in without touching this file.
 *
 * The prelude evaluates to `start(contextJson)` (it is compiled before the run comes,
 * engine-prepared.ts); `start` builds the script's API for the run's context and answers the
 * function that invokes the wrapped user script and returns the JSON text of its result (engine.ts).
 */
import { FAULT_SOURCE } from './prelude/fault-consts.js';
import { HOST_CORE_SOURCE } from './prelude/host-modules.js';
import { REQUIRE_SOURCE, SCRIPT_GLOBALS } from './prelude/require.js';
import { TRIGGER_PRELUDE } from './prelude-trigger.js';

export const PRELUDE_FILENAME = 'prelude';

/** The user script is wrapped in this function (on the same line, so line numbers match). */
export const SCRIPT_WRAPPER_HEAD = `(function main(${SCRIPT_GLOBALS}, module, exports) {`;
export const SCRIPT_WRAPPER_TAIL = '\n})';
export const SCRIPT_FILENAME = 'Script';

export const PRELUDE_SOURCE =
  String.raw`(function (g) {
  'use strict';
  var host = g.__host, log = g.__log, exitNative = g.__exit;
  // Intrinsics the bridge relies on are captured now, before the script can replace them.
  var stringify = JSON.stringify, parse = JSON.parse, assign = Object.assign, isArray = Array.isArray;
  var freeze = Object.freeze, defineProperty = Object.defineProperty, ErrorCtor = Error;
  delete g.__host; delete g.__log; delete g.__exit;
  return function start(contextJson) { var ctx = parse(contextJson); // the rest runs when the run begins
  var PAGE = ctx.pageSize > 0 ? ctx.pageSize : 100;
  var asStack = [];
  var EXIT = Object.freeze({ exit: true });
  // What runs when the script ends, returning or by script.exit (a trigger sends its memo back).
  var atEnd = [];
  function ended() { for (var i = 0; i < atEnd.length; i++) atEnd[i](); }

  function toFaultError(f) {
    var e = new ErrorCtor(f.reason || f.message || f.errCode);
    e.object = 'fault';
    e.faultName = f.name;
    e.code = f.code;
    e.errCode = f.errCode;
    e.status = f.status;
    e.reason = f.reason;
    if (f.path !== undefined) e.path = f.path;
    return e;
  }

  function call(name, ...args) {
    var asJson = asStack.length ? stringify(asStack[asStack.length - 1]) : null;
    var reply = parse(host(name, stringify(args), asJson));
    if (reply.ok) return reply.value;
    throw toFaultError(reply.fault);
  }

  function chain(target, names) {
    names.forEach(function (n) {
      target[n] = function (v) {
        this._opts[n] = arguments.length ? v : true;
        return this;
      };
    });
  }

  function Cursor(object, where) {
    this._object = object;
    this._opts = {};
    if (where !== undefined) this._opts.where = where;
    this._buf = [];
    this._pos = 0;
    this._fetched = 0;
    this._done = false;
  }
  chain(Cursor.prototype, ['sort', 'skip', 'limit', 'skipAcl', 'grant', 'include', 'expand', 'accessLevel', 'passive', 'locale']);
  Cursor.prototype.paths = function (...p) {
    this._opts.paths = p.length === 1 && isArray(p[0]) ? p[0] : p;
    return this;
  };
  Cursor.prototype.where = function (w) { this._opts.where = w; return this; };
  Cursor.prototype._fill = function () {
    if (this._pos < this._buf.length || this._done) return;
    var limit = this._opts.limit;
    var want = typeof limit === 'number' ? Math.min(PAGE, limit - this._fetched) : PAGE;
    if (want <= 0) { this._done = true; return; }
    // The first page honours skip; the next ones continue after the last record read (the
    // service's keyset continuation, page.next), so no page re-reads the ones before it.
    var opts = assign({}, this._opts, { limit: want });
    var page = this._next ? call('driver', this._object, 'cursor', opts, this._next) : call('driver', this._object, 'cursor', opts);
    var data = page && isArray(page.data) ? page.data : [];
    this._buf = data;
    this._pos = 0;
    this._fetched += data.length;
    this._next = page && isArray(page.next) ? page.next : undefined;
    if (!page || !page.hasMore || data.length === 0 || !this._next) this._done = true;
  };
  Cursor.prototype.hasNext = function () { this._fill(); return this._pos < this._buf.length; };
  Cursor.prototype.next = function () { return this.hasNext() ? this._buf[this._pos++] : undefined; };
  Cursor.prototype.toArray = function () { var out = []; while (this.hasNext()) out.push(this.next()); return out; };
  Cursor.prototype.forEach = function (fn) { while (this.hasNext()) fn(this.next()); };
  Cursor.prototype.map = function (fn) { var out = []; while (this.hasNext()) out.push(fn(this.next())); return out; };
  Cursor.prototype.toJSON = function () { return this.toArray(); };
  // The original's list page: one page of records and whether more follow.
  Cursor.prototype.toList = function () {
    var n = typeof this._opts.limit === 'number' ? this._opts.limit : PAGE, data = [];
    while (data.length < n && this.hasNext()) data.push(this.next());
    return { object: 'list', data: data, hasMore: this.hasNext() };
  };
  Cursor.prototype.count = function () {
    return call('driver', this._object, 'count', this._opts.where === undefined ? {} : { where: this._opts.where });
  };
  // The part of the query this cursor has not fetched yet, as driver options; null when exhausted.
  Cursor.prototype._rest = function () {
    if (this._done) return null;
    var rest = assign({}, this._opts);
    if (typeof this._opts.limit === 'number') {
      rest.limit = this._opts.limit - this._fetched;
      if (rest.limit <= 0) return null;
    } else rest.limit = false;
    return rest;
  };

  // The original's aggregation cursor: org.objects.x.aggregate([stages]), and stage builders
  // (match, group, project, sort, skip, limit, unwind, addFields) that append a stage each. It
  // pages like a find() cursor; the host runs the pipeline (records/aggregate.ts).
  function AggregationCursor(object, pipeline) {
    Cursor.call(this, object);
    this._opts.pipeline = pipeline === undefined || pipeline === null ? [] : isArray(pipeline) ? pipeline.slice() : [pipeline];
  }
  AggregationCursor.prototype = Object.create(Cursor.prototype);
  AggregationCursor.prototype.constructor = AggregationCursor;
  ['match', 'group', 'project', 'sort', 'skip', 'limit', 'unwind', 'addFields'].forEach(function (op) {
    AggregationCursor.prototype[op] = function (value) {
      var stage = {};
      stage['$' + op] = value;
      this._opts.pipeline.push(stage);
      return this;
    };
  });
  AggregationCursor.prototype.pipeline = function (stages) {
    this._opts.pipeline = this._opts.pipeline.concat(isArray(stages) ? stages : [stages]);
    return this;
  };
  // A record count would ignore the pipeline: count what the pipeline outputs.
  AggregationCursor.prototype.count = function () { var n = 0; while (this.hasNext()) { this.next(); n++; } return n; };

  // What a run answers: JSON text, or for a returned cursor (§B: "streamed like cursor") 'C' and
  // the cursor's unread records and remaining query, which the service streams after the run.
  // JSON text never starts with 'C', so the mark cannot be produced by any other value.
  function encodeResult(v) {
    if (v instanceof Cursor) {
      var rest = { object: v._object, options: v._rest(), buffered: v._buf.slice(v._pos) };
      if (rest.options && v._next) rest.after = v._next;
      return 'C' + stringify(rest);
    }
    var s = stringify(v);
    return s === undefined ? 'null' : s;
  }

  function Operation(object, operation, opts) {
    this._object = object;
    this._operation = operation;
    this._opts = opts;
  }
  chain(Operation.prototype, ['skipAcl', 'grant', 'lean', 'dryRun', 'throwNotFound', 'path', 'sort', 'skip', 'limit', 'mergeDocuments']);
  Operation.prototype.paths = Cursor.prototype.paths;
  Operation.prototype.pathPrefix = function (p) { this._opts.path = p; return this; };
  Operation.prototype.execute = function () {
    return call('driver', this._object, this._operation, this._opts);
  };

  function model(name) {
    var m = {
      find: function (where) { return new Cursor(name, where); },
      aggregate: function (pipeline) { return new AggregationCursor(name, pipeline); },
      readOne: function (where) { return new Operation(name, 'readOne', { where: where }); },
      count: function (where) { return call('driver', name, 'count', where === undefined ? {} : { where: where }); },
      insertOne: function (document) { return new Operation(name, 'insertOne', { document: document }); },
      // insertMany([doc, doc]) or, as the original also takes them, insertMany(doc, doc, …).
      insertMany: function (documents) {
        var docs = arguments.length > 1 || !isArray(documents) ? Array.prototype.slice.call(arguments) : documents;
        return new Operation(name, 'insertMany', { documents: docs });
      },
      updateOne: function (match, update) { return new Operation(name, 'updateOne', { match: match, update: update }); },
      updateMany: function (match, update) { return new Operation(name, 'updateMany', { match: match, update: update }); },
      patchOne: function (match, ops) { return new Operation(name, 'patchOne', { match: match, ops: ops }); },
      patchMany: function (match, ops) { return new Operation(name, 'patchMany', { match: match, ops: ops }); },
      deleteOne: function (match) { return new Operation(name, 'deleteOne', { match: match }); },
      deleteMany: function (match) { return new Operation(name, 'deleteMany', { match: match }); }
    };
    var lower = name.toLowerCase();
    if (lower === 'account' || lower === 'accounts') {
      m.createAuthToken = function (apiKey, subject, options) { return call('tokens.create', apiKey, subject, options || {}); };
      m.getSubjectTokens = function (apiKey, subject) { return call('tokens.list', apiKey, subject); };
      m.revokeAuthToken = function (tokenOrJti) { return call('tokens.revoke', tokenOrJti); };
      m.revokeSubjectTokens = function (apiKey, subject) { return call('tokens.revokeSubject', apiKey, subject); };
      m.register = function (doc, options) { return call('accounts.register', doc, options || {}); };
      m.admin = freeze({
        read: function (id, path) { return call('accounts.admin', 'read', id, path === undefined ? null : path, null); },
        update: function (id, doc) { return call('accounts.admin', 'update', id, null, doc); }
      });
    }
    return Object.freeze(m);
  }

  var models = {};
  var objects = new Proxy({}, {
    get: function (_t, name) {
      if (typeof name !== 'string' || name === 'then' || name === 'toJSON') return undefined;
      return models[name] || (models[name] = model(name));
    },
    set: function () { return false; }
  });
  var org = Object.freeze({
    objects: objects,
    read: function (path) { return call('org.read', path === undefined ? '' : String(path)); },
    push: function (path, values) { return call('org.push', String(path), values === undefined ? null : values); }
  });

  var request = ctx.request || {};
  var headers = request.headers || {};
  var requestModule = Object.freeze({
    getHeader: function (n) { var v = headers[String(n).toLowerCase()]; return v === undefined ? null : v; },
    // Cookies never reach scripts (the service strips them): a named cookie reads as null.
    getCookie: function (n) {
      if (typeof n !== 'string' || n === '') throw toFaultError({ errCode: 'service.invalidArgument.cookie', code: 'kInvalidArgument', status: 400, reason: 'Missing cookie name' });
      return null;
    },
    headers: headers,
    body: request.body,
    method: request.method,
    path: request.path,
    query: request.query || {},
    params: request.params || {}
  });
  // Route scripts (§C) shape their answer through the host ('response.*', 'route.next'). Other
  // runs have no such host functions: there, as in the original, each call answers false.
  function respond(name, args) {
    try { call.apply(null, [name].concat(args)); } catch (e) {
      if (e && e.errCode === 'service.notImplemented.script.host') return false;
      throw e;
    }
    return responseModule;
  }
  var responseModule = Object.freeze({
    setStatusCode: function (code) { return respond('response.status', [code]); },
    setHeader: function (name, value) { return respond('response.header', [name, value]); },
    setCookie: function () { return false; },
    write: function (body) { return respond('response.body', [body]); },
    next: function () { call('route.next'); exitNative('null'); throw EXIT; }
  });
  function format(v) {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return String(v);
    try { var s = stringify(v); return s === undefined ? String(v) : s; } catch (e) { return String(v); }
  }
  var consoleObj = {};
  ['log', 'info', 'warn', 'error', 'debug'].forEach(function (level) {
    consoleObj[level] = function (...args) {
      var text = '';
      for (var i = 0; i < args.length; i++) text += (i ? ' ' : '') + format(args[i]);
      log(level, text);
    };
  });
  Object.freeze(consoleObj);

  // script.principal is what the script sees (it changes inside script.as); the host never trusts
  // it: host calls carry the principal the host itself returned from 'as' (asStack).
  var script = {};
  // The original's principal methods, not enumerable: the object still serialises as before.
  function withPrincipalMethods(p) {
    if (!p || typeof p !== 'object') return p;
    var roles = isArray(p.roles) ? p.roles.map(function (r) { return String(r).toLowerCase(); }) : [];
    var named = (ctx.consts && ctx.consts.roles) || {};
    defineProperty(p, 'hasRole', { value: function (r) { var id = String(named[r] || r).toLowerCase(); return roles.indexOf(id) !== -1; } });
    defineProperty(p, 'isAnonymous', { value: function () { return !p._id; } });
    defineProperty(p, 'isPublic', { value: function () { return !p._id; } });
    return p;
  }
  var principal = withPrincipalMethods(ctx.principal);
  function readOnly(name, value) {
    defineProperty(script, name, { value: value, enumerable: true, writable: false, configurable: false });
  }
${TRIGGER_PRELUDE}
  readOnly('arguments', ctx.arguments);
  defineProperty(script, 'principal', { get: function () { return principal; }, enumerable: true, configurable: false });
  readOnly('env', freeze(ctx.env || {}));
  readOnly('org', freeze(ctx.org || {}));
  readOnly('exit', freeze(function exit(v) {
    ended();
    exitNative(encodeResult(v === undefined ? null : v));
    throw EXIT;
  }));
  readOnly('as', freeze(function as(who, options, fn) {
    if (typeof options === 'function') { fn = options; options = {}; }
    if (typeof fn !== 'function') throw new TypeError('script.as needs a function');
    var effective = call('as', who, options || {});
    var saved = principal;
    var depth = asStack.length;
    asStack[depth] = effective;
    principal = withPrincipalMethods(effective);
    try { return fn(); } finally { asStack.length = depth; principal = saved; }
  }));
  Object.preventExtensions(script);
` +
  FAULT_SOURCE +
  REQUIRE_SOURCE +
  HOST_CORE_SOURCE +
  String.raw`
  return function invoke(main) {
    var module = { exports: {} };
    var value = main(script, consoleObj, require, org, consts, Fault, sys, globalProxy, ServiceObject, ServiceObject, module, module.exports);
    ended();
    return encodeResult(value);
  }; };
})(globalThis)`;
