import { describe, expect, it } from 'vitest';
import {
  buildManifest,
  defaultChoices,
  deploymentTarget,
  joinChanges,
  manifestOf,
  parseNdjson,
  type ImportLogEntry,
} from './environment';

describe('buildManifest', () => {
  it('names every chosen section with its includes and excludes, and chosen record types', () => {
    const choices = defaultChoices();
    choices.sections.apps.on = false;
    choices.sections.roles = { on: true, names: ['reader', '/^ana/'], excludes: ['administrator'] };
    choices.records.c_conversation = { on: true, names: [], excludes: [] };
    expect(buildManifest(choices)).toEqual({
      objects: { includes: ['*'] },
      roles: { includes: ['reader', '/^ana/'], excludes: ['administrator'] },
      views: { includes: ['*'] },
      scripts: { includes: ['*'] },
      settings: { includes: ['*'] },
      configs: { includes: ['*'] },
      policies: { includes: ['*'] },
      c_conversation: { includes: ['*'] },
    });
  });
});

const log = (resource: string, change: string): ImportLogEntry =>
  ({ object: 'manifest.log', timestamp: 't', type: 'resource', level: 'info', resource, change }) as ImportLogEntry;

describe('joinChanges', () => {
  it('pairs the service-reported change with this org and the file documents', () => {
    const file = parseNdjson(
      '{"object":"role","resource":"role.a","x":1}\n{"object":"role","resource":"role.b","x":2}\n{"object":"manifest","roles":{"includes":["*"]}}\n',
    );
    const current = [
      { object: 'role', resource: 'role.b', x: 1 },
      { object: 'role', resource: 'role.c', x: 3 },
    ];
    const changes = joinChanges(
      [
        { object: 'manifest.log', timestamp: 't', type: 'status', level: 'info', stage: 'ingest' },
        log('role.a', 'added'),
        log('role.b', 'changed'),
        log('role.c', 'kept'),
      ],
      file,
      current,
    );
    expect(changes).toEqual([
      { resource: 'role.a', change: 'added', after: file[0] },
      { resource: 'role.b', change: 'changed', before: current[0], after: file[1] },
      { resource: 'role.c', change: 'kept', before: current[1] },
    ]);
    expect(manifestOf(file)).toEqual({ roles: { includes: ['*'] } });
  });
});

describe('deploymentTarget', () => {
  it('shows any kind of target generically', () => {
    expect(deploymentTarget({ _id: '1', name: 'd', manifest: '{}', targetOrg: 'staging', sourceOrg: 'demo' })).toEqual([
      { kind: 'org', value: 'staging' },
    ]);
    expect(
      deploymentTarget({ _id: '1', name: 'd', manifest: '{}', target: { kind: 'url', url: 'https://x.test' } }),
    ).toEqual([
      { kind: 'kind', value: 'url' },
      { kind: 'url', value: 'https://x.test' },
    ]);
  });
});
