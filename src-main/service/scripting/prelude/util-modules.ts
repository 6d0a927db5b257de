/**
 * Script-side utility modules of the original (a module group, module-groups.ts: compiled the first
 * time a run requires one of them):
 * `util.values`, `util.id`, `util.paths.to`, `util.paths.accessor` and `util` (the three together).
 * Written from the behaviour real scripts rely on (mdctl's plugin library, published apps), not
 * from the original's code.
 */
export const UTIL_GROUP_BODY = String.raw`
  var ID_RE = /^[0-9a-f]{24}$/i;
  function isSet(v) { return v !== null && v !== undefined; }
  function isFunction(v) { return typeof v === 'function'; }
  function isString(v) { return typeof v === 'string'; }
  function isPlainObject(v) { return v !== null && typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null); }
  function isNumeric(v) { return (typeof v === 'number' && isFinite(v)) || (typeof v === 'string' && v.trim() !== '' && isFinite(Number(v))); }
  function isInt(v) { return isNumeric(v) && Number(v) % 1 === 0; }
  var values = freeze({
    isSet: isSet, isFunction: isFunction, isString: isString, isPlainObject: isPlainObject,
    isNumeric: isNumeric, isInt: isInt, isInteger: isInt,
    isBoolean: function (v) { return typeof v === 'boolean'; },
    isObject: function (v) { return v !== null && typeof v === 'object'; },
    array: function (v, wrap) { return isArray(v) ? v : wrap || (wrap === undefined && isSet(v)) ? [v] : []; },
    rVal: function (v, d) { return v === undefined ? d : v; },
    rString: function (v, d) { return typeof v === 'string' ? v : d; },
    rNum: function (v, d) { return typeof v === 'number' && !isNaN(v) ? v : d; },
    rInt: function (v, d) { return isInt(v) ? parseInt(v, 10) : d; },
    rBool: function (v, d) { return typeof v === 'boolean' ? v : d; },
    rArray: function (v, d) { return isArray(v) ? v : d; },
    rFunction: function (v, d) { return typeof v === 'function' ? v : d; },
    clamp: function (n, min, max) { return Math.max(min, Math.min(max, n)); },
    stringToBoolean: function (v, d) { var s = String(v).toLowerCase(); return s === 'true' || s === '1' || s === 'y' || s === 'yes' ? true : s === 'false' || s === '0' || s === 'n' || s === 'no' ? false : d; },
    matchesEnvironment: function (environment) {
      var want = environment === undefined || environment === null ? '*' : environment;
      return want === '*' || want === (script.env && script.env.name);
    },
    naturalCmp: function (a, b) { return String(a).localeCompare(String(b), undefined, { numeric: true }); }
  });

  function idOf(v) {
    if (typeof v === 'string' && ID_RE.test(v)) return v.toLowerCase();
    if (v && typeof v === 'object' && v._id !== undefined && v._id !== v) return idOf(v._id);
    if (v && typeof v === 'object' && typeof v.toString === 'function' && v.toString !== Object.prototype.toString) {
      var s = v.toString();
      if (ID_RE.test(s)) return s.toLowerCase();
    }
    return null;
  }
  var idCounter = Math.floor(Math.random() * 0xffffff);
  function createId() {
    var hex = function (n, w) { var s = n.toString(16); while (s.length < w) s = '0' + s; return s.slice(-w); };
    idCounter = (idCounter + 1) % 0x1000000;
    return hex(Math.floor(Date.now() / 1000), 8) + hex(Math.floor(Math.random() * 0x10000000000), 10) + hex(idCounter, 6);
  }
  var ids = freeze({
    isId: function (v) { return idOf(v) !== null && (typeof v === 'string' || typeof v === 'object'); },
    isIdFormat: function (v) { return typeof v === 'string' && ID_RE.test(v); },
    getIdOrNull: function (v) { return idOf(v); },
    createId: createId,
    equalIds: function () {
      var first = idOf(arguments[0]);
      if (first === null) return false;
      for (var i = 1; i < arguments.length; i++) if (idOf(arguments[i]) !== first) return false;
      return arguments.length > 1;
    },
    indexOfId: function (list, id) { var want = idOf(id); return (list || []).findIndex(function (v) { return idOf(v) === want; }); },
    inIdArray: function (list, id) { return ids.indexOfId(list, id) !== -1; },
    uniqueIdArray: function (list) { var seen = {}; return (list || []).filter(function (v) { var k = idOf(v); if (k === null || seen[k]) return false; seen[k] = true; return true; }); },
    diffIdArrays: function (a, b) { return (a || []).filter(function (v) { return !ids.inIdArray(b, v); }); },
    intersectIdArrays: function (a, b) { return (a || []).filter(function (v) { return ids.inIdArray(b, v); }); },
    idToTimestamp: function (v) { var s = idOf(v); return s === null ? null : parseInt(s.slice(0, 8), 16) * 1000; },
    timestampToId: function (t) { var s = Math.floor(new Date(t).getTime() / 1000).toString(16); while (s.length < 8) s = '0' + s; return s + '0000000000000000'; }
  });

  function pathTo(obj, path, value, returnTopOnWrite) {
    var parts = isArray(path) ? path : String(path).split('.');
    if (arguments.length < 3) {
      var cur = obj;
      for (var i = 0; i < parts.length; i++) {
        if (cur === null || cur === undefined) return undefined;
        cur = cur[parts[i]];
      }
      return cur;
    }
    var target = obj;
    for (var j = 0; j < parts.length - 1; j++) {
      var k = parts[j];
      if (k === '__proto__' || k === 'constructor') return obj;
      if (target[k] === null || typeof target[k] !== 'object') target[k] = {};
      target = target[k];
    }
    var last = parts[parts.length - 1];
    if (last !== '__proto__' && last !== 'constructor') target[last] = value;
    return returnTopOnWrite ? obj : value;
  }
  function accessor(obj, options) {
    var extra = options && options.extra;
    return function (path, value) {
      if (arguments.length === 0) return extra !== undefined ? extra : obj;
      return arguments.length > 1 ? pathTo(obj, path, value) : pathTo(obj, path);
    };
  }
  var profiler = freeze({ enabled: false, start: function () {}, end: function () {}, profile: function (n, fn) { return fn(); }, report: function () { return {}; }, reset: function () {} });

  builtin('util.values', function () { return values; });
  builtin('util.id', function () { return ids; });
  builtin('util.paths.to', function () { return pathTo; });
  builtin('util.paths.accessor', function () { return accessor; });
  builtin('util', function () { return freeze({ values: values, id: ids, paths: freeze({ to: pathTo, accessor: accessor }), profiler: profiler }); });
`;
