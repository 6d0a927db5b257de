/**
 * The script API in one typed description (issue 40): the modules `require`/`import` resolves, the
 * globals every script sees, and what each offers. The sandbox takes its list of refused and
 * bundled modules from here (scripting/prelude/require.ts), the Scripts screen its completion and
 * module list, and docs/scripting.md its module table (generated; a test fails when it is stale).
 */

export type ModuleStatus = 'implemented' | 'partial' | 'bundled' | 'refused';

export interface ModuleDescription {
  name: string;
  status: ModuleStatus;
  /** What it offers, in a few words. */
  summary: string;
  /** Names a script takes from it (for completion). */
  exports?: readonly string[];
  /** Why it is refused, or what part is missing (partial). */
  reason?: string;
}

export const MODULE_TABLE: readonly ModuleDescription[] = [
  {
    name: 'request',
    status: 'implemented',
    summary: 'The request a route or the runner serves.',
    exports: ['getHeader', 'headers', 'body', 'method', 'path', 'query', 'params'],
  },
  {
    name: 'response',
    status: 'implemented',
    summary: "A route's answer (routes only).",
    exports: ['setStatusCode', 'setHeader', 'write', 'next'],
  },
  { name: 'objects', status: 'implemented', summary: 'org.objects: every object by name.' },
  {
    name: 'accounts',
    status: 'implemented',
    summary: 'org.objects.accounts with its token functions.',
    exports: ['find', 'readOne', 'createAuthToken', 'getSubjectTokens', 'revokeAuthToken', 'revokeSubjectTokens'],
  },
  {
    name: 'consts',
    status: 'implemented',
    summary: 'Access levels, roles (by name and code), principals, ACL targets.',
    exports: ['accessLevels', 'roles', 'principals', 'accessPrincipals', 'accessTargets'],
  },
  {
    name: 'config',
    status: 'implemented',
    summary: "The org's key/value configuration: config(key), get(key.path), set, keys, del.",
    exports: ['get', 'set', 'keys', 'del'],
  },
  {
    name: 'logger',
    status: 'partial',
    summary: "trace/debug/info/warn/error/log to the run's console.",
    exports: ['trace', 'debug', 'info', 'warn', 'error', 'log'],
    reason:
      "Lines go to the run’s console output, kept in its log entry (GET /logs, sys.tail('console')); the original's separate logger source is not kept apart.",
  },
  {
    name: 'cache',
    status: 'implemented',
    summary: 'Per-org values with an optional time to live (in memory).',
    exports: ['get', 'has', 'set', 'del', 'list', 'clear'],
  },
  {
    name: 'counters',
    status: 'implemented',
    summary:
      'Per-org counters kept with the org; each `next` reads and writes the counter under one write lock, so two processes on one folder never answer the same value.',
    exports: ['next', 'get', 'del', 'list'],
  },
  {
    name: 'crypto',
    status: 'implemented',
    summary: 'Hashes and HMACs (md5, sha1, sha256, sha512), random bytes, UUIDs.',
    exports: ['createHash', 'createHmac', 'randomBytes', 'randomUUID'],
  },
  {
    name: 'notifications',
    status: 'partial',
    summary: "send(name, variables, {recipient}) to the org's outbox.",
    exports: ['send'],
    reason: 'Messages go to the local outbox; there are no notification templates.',
  },
  {
    name: 'util.values',
    status: 'implemented',
    summary: 'isSet, rString, rNum, rInt, rBool, array, clamp, matchesEnvironment, …',
    exports: ['isSet', 'isFunction', 'isString', 'rString', 'rNum', 'rInt', 'rBool', 'rVal', 'array', 'clamp'],
  },
  {
    name: 'util.id',
    status: 'implemented',
    summary: 'equalIds, isId, getIdOrNull, createId, inIdArray, uniqueIdArray, …',
    exports: ['equalIds', 'isId', 'isIdFormat', 'getIdOrNull', 'createId', 'inIdArray', 'uniqueIdArray'],
  },
  { name: 'util.paths.to', status: 'implemented', summary: 'Read or write a dotted path of an object.' },
  { name: 'util.paths.accessor', status: 'implemented', summary: 'A function reading paths of one object.' },
  {
    name: 'util',
    status: 'implemented',
    summary: 'values, id, paths and a no-op profiler together.',
    exports: ['values', 'id', 'paths', 'profiler'],
  },
  {
    name: 'decorator-utils',
    status: 'implemented',
    summary: 'decorate(handleDescriptor, args) and isDescriptor, to build decorators.',
    exports: ['decorate', 'isDescriptor'],
  },
  {
    name: 'decorators',
    status: 'partial',
    summary:
      '@route (served), @trigger and @job (run as trigger and job records), @policy (applied to the org’s requests), @log, @as, @transform.',
    exports: ['route', 'trigger', 'job', 'log', 'as', 'policy', 'transform'],
    reason:
      "@policy's if, pipeline and transform options and its Transform and Pipeline actions are refused on save (not applied here); a @trigger's if is evaluated with the pipeline language's expressions (and `$find`, `$reduce`, `$toBool`, `$let`, `$cache`, variables, constants of imported libraries), and one it cannot read, or an option it does not read (environment…), is refused on save; its paths limit it to updates touching them.",
  },
  {
    name: 'decorators-transform',
    status: 'partial',
    summary: '@transform and its hooks, accepted so libraries load.',
    exports: ['transform', 'each', 'beforeAll', 'before', 'after', 'afterAll', 'error'],
    reason: 'Environment-transform pipelines are not run.',
  },
  {
    name: 'runtime.transform',
    status: 'partial',
    summary: 'The Transform base class.',
    exports: ['Transform', 'Runtime'],
    reason: 'Environment-transform pipelines are not run.',
  },
  { name: 'should', status: 'bundled', summary: 'should.js 13 assertions (Object.prototype.should).' },
  { name: 'moment', status: 'bundled', summary: 'moment 2 dates (no locales; zones with moment.timezone).' },
  { name: 'underscore', status: 'bundled', summary: 'underscore 1.13.' },
  { name: 'lodash', status: 'bundled', summary: 'lodash 4.' },
  { name: 'bignumber', status: 'bundled', summary: 'bignumber.js 11: arbitrary-precision decimals (BigNumber).' },
  { name: 'decimal', status: 'bundled', summary: 'decimal.js 10: arbitrary-precision decimals (Decimal).' },
  {
    name: 'moment.timezone',
    status: 'bundled',
    summary: 'moment-timezone 0.6: moment with tz(), zone data 1970–2030.',
  },
  { name: 'underscore.string', status: 'bundled', summary: 'underscore.string 3: string helpers (s.capitalize, …).' },
  { name: 'later', status: 'bundled', summary: 'later (the @breejs/later fork, 4.2): recurring schedules.' },
  {
    name: 'http',
    status: 'partial',
    summary: 'get/head/post/put/patch/delete(url, {headers, body, timeout}) → {statusCode, headers, body}.',
    exports: ['get', 'head', 'post', 'put', 'patch', 'delete', 'request'],
    reason: 'Off unless an administrator turns it on for the org, then only to the hosts listed (scriptHttpHosts).',
  },
  {
    name: 'developer',
    status: 'partial',
    summary:
      'environment.export({manifest}) → the exported documents; environment.import(docs | cursor, {backup, dryRun, triggers}) → the manifest log (administrators).',
    exports: ['environment'],
    reason:
      "import takes POST /developer/environment/import's path (record rules, all or nothing); triggers: true runs the imported records' triggers (none without it); the original's production and package options are not read.",
  },
  {
    name: 'api',
    status: 'partial',
    summary:
      "currentActivity() → the org's {requests, scripts, workers} now; principal.create(_id | email | {_id}) → a principal; logs({where, sort, skip, limit}) → the run logs (a list).",
    exports: ['currentActivity', 'principal', 'logs', 'stats', 'closeOutputStream'],
    reason:
      "One process, not a cluster: the activity is this service's script pool, and requests are those whose scripts run. Activity and others' principals are administrators'. stats and closeOutputStream are refused (notImplemented.api): nothing keeps them.",
  },
  {
    name: 'wrapped',
    status: 'partial',
    summary:
      'wrapped(object, {where, paths, limit, skip, sort, skipAcl, grant}) → find(where) and count(where), the Atom dev tools’ query helper.',
    reason: 'Reads only; skipAcl and grant count only for a principal who holds them, as on org.objects.',
  },
  { name: 'schemas', status: 'refused', summary: 'Object definitions.', reason: 'read org.objects.objects instead.' },
  { name: 'i18n', status: 'refused', summary: 'Translations.', reason: 'there is no translation store.' },
  {
    name: 'db',
    status: 'refused',
    summary: "The original's low-level driver.",
    reason: 'use org.objects; records are reached only through the access layer.',
  },
  ...['posts', 'comments', 'connections', 'views', 'debug', 'ftp', 'runtime.script'].map((name): ModuleDescription => ({
    name,
    status: 'refused',
    summary: "A module of the original's older script API.",
    reason: 'use org.objects (posts, comments and connections are records there) and the REST routes.',
  })),
  {
    name: 'session',
    status: 'refused',
    summary: "The caller's session.",
    reason: 'script.principal describes the caller; sessions are not scriptable.',
  },
];

export interface GlobalDescription {
  name: string;
  summary: string;
  members?: readonly string[];
}

export const GLOBAL_TABLE: readonly GlobalDescription[] = [
  {
    name: 'script',
    summary: 'The run: arguments, principal, env, org, exit(v), as(principal, options, fn).',
    members: ['arguments', 'principal', 'env', 'org', 'exit', 'as'],
  },
  { name: 'org', summary: 'org.objects.<name>: find, readOne, count, insertOne, …', members: ['objects'] },
  { name: 'consts', summary: 'Access levels, roles, principals.', members: ['accessLevels', 'roles', 'principals'] },
  { name: 'Fault', summary: 'Fault.create(code, reason | options), Fault.from(err).', members: ['create', 'from'] },
  { name: 'require', summary: 'Modules and library scripts by export name.' },
  { name: 'console', summary: 'log, info, warn, error, debug (captured with the run).' },
  { name: 'global', summary: 'The global object: global.org, global.script, …' },
  {
    name: 'sys',
    summary:
      "sys.tail(source): 'console' (default) or 'logs'; the runner streams what scripts log from then on (NDJSON).",
    members: ['tail'],
  },
  { name: 'ServiceObject', summary: 'Base class of object models (the original’s CortexObject).' },
  { name: 'CortexObject', summary: 'The original’s name for ServiceObject.' },
];
