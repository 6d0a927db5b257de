/**
 * Script-side modules answered by host functions, and the original's remaining globals.
 * In the prelude itself (HOST_CORE_SOURCE, cheap: references to what the prelude built):
 * `request`, `response`, `objects`, `accounts`, `consts`, and the globals `global`, `sys`,
 * `ServiceObject`/`CortexObject`, `_id.equals`. Module groups (module-groups.ts, compiled on first
 * require): `config` (org key/value configuration), `logger` (to the run's console), `cache` (per
 * org, in memory), `counters` (per org, kept), `crypto` (hashes, HMAC, random bytes),
 * `notifications` (to the org's outbox), and `http` (its own group: it may refuse to load).
 */
export const HOST_CORE_SOURCE = String.raw`
  builtin('request', function () { return requestModule; });
  builtin('response', function () { return responseModule; });
  builtin('objects', function () { return objects; });
  builtin('accounts', function () { return objects.accounts; });
  builtin('consts', function () { return consts; });

  // ObjectId-like ids: the original's _id values answer equals(); here ids are strings.
  defineProperty(String.prototype, 'equals', {
    value: function (other) {
      var o = other && typeof other === 'object' && other._id !== undefined ? other._id : other;
      return o !== null && o !== undefined && String(o).toLowerCase() === String(this).toLowerCase();
    },
    writable: true,
    configurable: true
  });

  // sys.tail(source) (mdctl's tail: 'return sys.tail("console")' with Accept: application/x-ndjson):
  // a cursor over the org's log entries carrying the source; the runner streams what scripts log
  // from then on (logs/tail.ts, routes/script-tail.ts), and checks the source.
  var sys = freeze({
    tail: function (source) {
      var cursor = objects.logs.find();
      cursor._opts.tail = source === undefined || source === null ? 'console' : source;
      return cursor;
    }
  });

  // The original's object class: org.objects models are its subclasses. Here a base class whose
  // statics reach org.objects by the class's objectName (or name).
  class ServiceObject {
    static get model() { return objects[this.objectName || this.name]; }
    static as(name) { return objects[name]; }
  }
  ['find', 'readOne', 'count', 'insertOne', 'insertMany', 'updateOne', 'updateMany', 'patchOne', 'patchMany', 'deleteOne', 'deleteMany', 'aggregate'].forEach(function (op) {
    ServiceObject[op] = function () { var m = this.model; return m[op].apply(m, arguments); };
  });
  freeze(ServiceObject);

  // The original's global object: 'global.org' and the other globals are reachable through it,
  // while globalThis itself keeps only ECMAScript intrinsics.
  var globalProxy = Object.create(g);
  assign(globalProxy, { org: org, script: script, consts: consts, Fault: Fault, sys: sys, CortexObject: ServiceObject, ServiceObject: ServiceObject, console: consoleObj, require: require });
  freeze(globalProxy);
`;

export const HOST_GROUP_BODY = String.raw`
  function config(key) { return config.get(key); }
  config.get = function (path) { return call('config.get', String(path)); };
  config.set = function (key, value) { return call('config.set', String(key), value === undefined ? null : value); };
  config.keys = function () { return call('config.keys'); };
  config.del = function (key) { return call('config.set', String(key), null); };
  freeze(config);
  builtin('config', function () { return config; });

  var logger = {};
  ['trace', 'debug', 'info', 'warn', 'error'].forEach(function (level) {
    logger[level] = function () { return consoleObj[level === 'trace' ? 'debug' : level].apply(null, arguments); };
  });
  logger.log = logger.info;
  freeze(logger);
  builtin('logger', function () { return logger; });

  builtin('cache', function () {
    return freeze({
      get: function (key) { return call('cache.get', String(key)); },
      has: function (key) { return call('cache.has', String(key)); },
      set: function (key, value, ttlSeconds) { call('cache.set', String(key), value === undefined ? null : value, ttlSeconds === undefined ? null : ttlSeconds); return value; },
      del: function (key) { return call('cache.del', String(key)); },
      list: function (prefix) { return call('cache.list', prefix === undefined ? '' : String(prefix)); },
      clear: function (prefix) { return call('cache.clear', prefix === undefined ? '' : String(prefix)); }
    });
  });
  builtin('counters', function () {
    return freeze({
      next: function (key) { return call('counters.next', String(key)); },
      get: function (key) { return call('counters.get', String(key)); },
      has: function (key) { return call('counters.get', String(key)) !== null; },
      del: function (key) { return call('counters.del', String(key)); },
      list: function (prefix) { return call('counters.list', prefix === undefined ? '' : String(prefix)); },
      count: function (prefix) { return call('counters.list', prefix === undefined ? '' : String(prefix)).data.length; },
      clear: function (prefix) { return call('counters.clear', prefix === undefined ? '' : String(prefix)); }
    });
  });

  function digest(alg, key) {
    var parts = [];
    var h = {
      update: function (data) { parts.push(typeof data === 'string' ? data : stringify(data)); return h; },
      digest: function (encoding) { return call('crypto.digest', String(alg), key === undefined ? null : String(key), parts.join(''), encoding || 'hex'); }
    };
    return h;
  }
  builtin('crypto', function () {
    return freeze({
      createHash: function (alg) { return digest(alg); },
      createHmac: function (alg, key) { return digest(alg, key); },
      randomBytes: function (n) {
        var r = call('crypto.random', n);
        return freeze({ length: r.length, toString: function (enc) { return enc === 'base64' ? r.base64 : r.hex; } });
      },
      randomUUID: function () { return call('crypto.uuid'); }
    });
  });

  // The Atom dev tools' query helper: wrapped(object, options).find(where) is org.objects[object].find
  // with the options applied; skipAcl and grant are the driver's (they count only where the principal holds them).
  builtin('wrapped', function () {
    return function wrapped(name, options) {
      if (typeof name !== 'string' || name === '') {
        throw Fault.create('service.invalidArgument.object', { reason: 'wrapped(object, options) names an object.' });
      }
      var o = options || {}, model = objects[name];
      function find(where) {
        var c = model.find(where === undefined ? o.where : where);
        if (o.skipAcl) c.skipAcl(true);
        if (o.grant !== undefined && o.grant !== null) c.grant(o.grant);
        if (o.paths !== undefined && o.paths !== null) c.paths(isArray(o.paths) ? o.paths : [o.paths]);
        ['sort', 'skip', 'limit'].forEach(function (k) { if (o[k] !== undefined && o[k] !== null) c[k](o[k]); });
        return c;
      }
      return freeze({ find: find, count: function (where) { return find(where).count(); } });
    };
  });

  // The original's view of the org's server (host-api.ts): activity and principals from the host,
  // logs through org.objects (the driver's rules, as GET /logs); what nothing keeps here is refused.
  builtin('api', function () {
    function refuse(name, why) {
      return function () { throw Fault.create('service.notImplemented.api', { path: 'api.' + name, reason: why }); };
    }
    return freeze({
      currentActivity: function () { return call('api.activity'); },
      principal: freeze({ create: function (subject) { return call('api.principal', subject === undefined ? null : subject); } }),
      logs: function (options) {
        var o = options || {}, c = objects.logs.find(o.where === undefined || o.where === null ? {} : o.where);
        ['sort', 'skip', 'limit'].forEach(function (k) { if (o[k] !== undefined && o[k] !== null) c[k](o[k]); });
        return c.toList();
      },
      stats: refuse('stats', 'This service keeps no usage statistics; read the run logs with api.logs().'),
      closeOutputStream: refuse('closeOutputStream', 'Requests here keep no output streams a script could close.')
    });
  });

  builtin('notifications', function () {
    return freeze({
      send: function (name, variables, options) {
        return call('notifications.send', name === undefined ? null : name, variables === undefined ? null : variables, options === undefined ? {} : options);
      }
    });
  });

`;

export const HTTP_GROUP_BODY = String.raw`
  // Environment export and import as documents (cursor-like lists), administrators only (host-developer.ts).
  builtin('developer', function () {
    function list(docs) {
      var i = 0;
      return freeze({
        hasNext: function () { return i < docs.length; },
        next: function () { return docs[i++]; },
        toArray: function () { var rest = docs.slice(i); i = docs.length; return rest; },
        toJSON: function () { return docs.slice(i); }
      });
    }
    return freeze({ environment: freeze({
      export: function (options) { return list(call('developer.export', options === undefined ? {} : options)); },
      // import(docs | cursor, {backup, dryRun, triggers}): the host applies them as POST /developer/environment/import does.
      import: function (payload, options) {
        var docs = payload;
        if (payload && !Array.isArray(payload) && typeof payload.toArray === 'function') docs = payload.toArray();
        if (!Array.isArray(docs)) {
          throw Fault.create('service.invalidArgument.cursorOrArrayExpected', { reason: 'environment.import takes the documents of an export: an array or a cursor.' });
        }
        return list(call('developer.import', docs, options === undefined || options === null ? {} : options));
      }
    }) });
  });

  // Outbound HTTP: the host refuses it unless the org's administrator turned it on for listed hosts.
  builtin('http', function () {
    if (!ctx.httpEnabled) {
      throw Fault.create('service.notImplemented.module', { path: 'http', reason: "The module 'http' is off for this org: an administrator turns it on (scriptHttpEnabled) and lists the hosts scripts may call (scriptHttpHosts)." });
    }
    var http = {};
    ['get', 'head', 'post', 'put', 'patch', 'delete'].forEach(function (m) {
      http[m] = function (url, options) { return call('http.request', m, url, options === undefined ? {} : options); };
    });
    http.request = function (options) { var o = options || {}; return call('http.request', o.method || 'get', o.url, o); };
    return freeze(http);
  });

`;
