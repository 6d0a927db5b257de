import type { ObjectDef, PropertyDef } from '../../../src-shared/schema/types.js';

/** Every property of a log is the service's: callers never write one (service-written.ts). */
const ro = (p: PropertyDef): PropertyDef => ({ ...p, readOnly: true });
const str = (name: string, extra: Partial<PropertyDef> = {}): PropertyDef =>
  ro({ name, type: 'String', maxLength: 2000, ...extra });
const int = (name: string, extra: Partial<PropertyDef> = {}): PropertyDef => ro({ name, type: 'Integer', ...extra });

/** What kind of run a log entry is for (`stp`, the original's script type). */
export const LOG_SCRIPT_TYPES = ['runner', 'route', 'trigger', 'job', 'policy'] as const;
export type LogScriptType = (typeof LOG_SCRIPT_TYPES)[number];
export const LOG_LEVELS = ['info', 'warn', 'error'] as const;

/**
 * A script run's log entry (issue 41), shaped as the original's `log` object: the original's short
 * names (`beg`, `end`, `lvl`, `sts`, `pid` the principal, `oid` the original caller, `sid` the
 * script, `stp` its type, `ops`, `in`, `out`, `err`, `trc` the trace as `{function, line}`, `dat`),
 * with `lvl` and `stp` as words rather than the original's numbers, and two of ours: `ms` (the
 * duration) and `console` (what the script printed, bounded by logs/run-log.ts). Written by the
 * service only (logs/run-log.ts); org administrators read them at `GET /logs` with the list
 * arguments, like any collection.
 */
export const LOG_DEF: ObjectDef = {
  name: 'log',
  collection: 'logs',
  label: 'Log',
  custom: false,
  properties: [
    str('req', { indexed: true, maxLength: 64 }),
    ro({ name: 'beg', type: 'Date', indexed: true }),
    ro({ name: 'end', type: 'Date' }),
    int('ms', { indexed: true }),
    str('src', { enum: ['script'] }),
    str('lvl', { indexed: true, enum: [...LOG_LEVELS] }),
    int('sts', { indexed: true }),
    ro({ name: 'pid', type: 'ObjectId', indexed: true }),
    ro({ name: 'oid', type: 'ObjectId' }),
    ro({ name: 'sid', type: 'ObjectId', indexed: true }),
    str('stp', { indexed: true, enum: [...LOG_SCRIPT_TYPES] }),
    str('label', { maxLength: 200 }),
    int('ops'),
    int('in'),
    int('out'),
    int('mem'),
    ro({
      name: 'err',
      type: 'Document',
      properties: [
        str('errCode', { indexed: true, maxLength: 200 }),
        str('code', { maxLength: 100 }),
        int('status'),
        str('message', { maxLength: 1000 }),
        str('reason', { maxLength: 4000 }),
        str('path', { maxLength: 200 }),
        str('trace', { maxLength: 8000 }),
      ],
    }),
    ro({
      name: 'trc',
      type: 'Document',
      array: true,
      properties: [str('function', { maxLength: 200 }), int('line')],
    }),
    ro({
      name: 'dat',
      type: 'Document',
      properties: [
        str('event', { indexed: true, maxLength: 100 }),
        str('object', { indexed: true, maxLength: 100 }),
        str('target', { maxLength: 64 }),
        str('resource', { maxLength: 300 }),
        str('result', { maxLength: 1000 }),
        str('path', { maxLength: 512 }),
      ],
    }),
    ro({
      name: 'console',
      type: 'Document',
      array: true,
      properties: [str('level', { maxLength: 8 }), str('message', { maxLength: 1000 })],
    }),
    ro({ name: 'truncated', type: 'Boolean' }),
  ],
};
