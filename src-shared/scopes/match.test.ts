import { describe, expect, it } from 'vitest';
import { allowedPropertyPaths, checkScope, NO_SCOPES_EXPLANATION } from './match';
import { collapsePaths, propertyAccess } from './property-path';
import type { ScopeRequest } from './request';

const ID = '5f0c3b2a1d4e6f7a8b9c0d1e';
const OTHER_ID = '0123456789abcdef01234567';

const readAccount: ScopeRequest = {
  kind: 'object',
  operation: 'read',
  objectType: 'account',
  instanceId: ID,
};
const readAccountName: ScopeRequest = { ...readAccount, propertyPath: 'name' };

describe('checkScope: the empty set and the lone *', () => {
  it('denies everything when there are no chains', () => {
    expect(checkScope([], readAccount)).toEqual({
      allowed: false,
      explanation: NO_SCOPES_EXPLANATION,
      perChain: [],
    });
    expect(NO_SCOPES_EXPLANATION).toBe('no scopes: nothing allowed');
  });

  it.each<ScopeRequest>([
    readAccountName,
    { kind: 'script', action: 'runner' },
    { kind: 'view', identifier: 'c_my_view' },
    { kind: 'deployment', identifier: 'c_release' },
    { kind: 'admin', action: 'update' },
  ])('"*" allows $kind requests', (request) => {
    const decision = checkScope(['*'], request);
    expect(decision).toMatchObject({
      allowed: true,
      matchedChain: '*',
      explanation: 'allowed: "*" grants everything the subject can do',
    });
    expect(decision.propertyLimited).toBeUndefined();
  });
});

// [chain, request, allowed, explanation]
type Case = [string, ScopeRequest, boolean, string];

describe('checkScope: object chains', () => {
  it.each<Case>([
    ['object', readAccount, true, 'allowed: "object" grants every operation on every object type'],
    ['object.read', readAccount, true, 'allowed: "object.read" grants read on every object type'],
    ['object.update', readAccount, false, `denied: no scope chain grants read on account instance ${ID}`],
    ['object.read.account', readAccount, true, 'allowed: "object.read.account" grants read on every account instance'],
    [
      'object.read.account.*',
      readAccount,
      true,
      'allowed: "object.read.account.*" grants read on every account instance',
    ],
    [
      'object..account.*',
      { ...readAccount, operation: 'delete' },
      true,
      'allowed: "object..account.*" grants every operation on every account instance',
    ],
    [
      `object.read.account.${ID}`,
      readAccount,
      true,
      `allowed: "object.read.account.${ID}" grants read on account instance ${ID}`,
    ],
    [
      `object.read.account.${ID.toUpperCase()}`,
      { ...readAccount, instanceId: ID.toUpperCase() },
      true,
      `allowed: "object.read.account.${ID.toUpperCase()}" grants read on account instance ${ID}`,
    ],
    [
      `object.read.account.${OTHER_ID}`,
      readAccount,
      false,
      `denied: no scope chain grants read on account instance ${ID}`,
    ],
    [
      `object.read.account.${ID}`,
      { kind: 'object', operation: 'read', objectType: 'account' },
      false,
      'denied: no scope chain grants read on account',
    ],
    ['object.read.contact', readAccount, false, `denied: no scope chain grants read on account instance ${ID}`],
    [
      'object.create.account',
      { kind: 'object', operation: 'create', objectType: 'account' },
      true,
      'allowed: "object.create.account" grants create on every account instance',
    ],
    [
      'object.read.c_step',
      { kind: 'object', operation: 'read', objectType: 'c_step', subtype: 'c_text' },
      true,
      'allowed: "object.read.c_step" grants read on every c_step instance',
    ],
    [
      'object.read.c_step#c_text',
      { kind: 'object', operation: 'read', objectType: 'c_step', subtype: 'c_text' },
      true,
      'allowed: "object.read.c_step#c_text" grants read on every c_step#c_text instance',
    ],
    [
      'object.read.c_step#c_text',
      { kind: 'object', operation: 'read', objectType: 'c_step', subtype: 'c_choice' },
      false,
      'denied: no scope chain grants read on c_step#c_choice',
    ],
    [
      'object.read.c_step#c_text',
      { kind: 'object', operation: 'read', objectType: 'c_step' },
      false,
      'denied: no scope chain grants read on c_step',
    ],
    [
      'object.read.account.*.name',
      readAccountName,
      true,
      'allowed: "object.read.account.*.name" grants read on every account instance (property name only), which covers name',
    ],
    [
      'object.read.account.*.name',
      { ...readAccount, propertyPath: 'name.first' },
      true,
      'allowed: "object.read.account.*.name" grants read on every account instance (property name only), which covers name.first',
    ],
    [
      'object.read.account.*.name',
      { ...readAccount, propertyPath: 'email' },
      false,
      `denied: no scope chain grants read on account instance ${ID} (property email)`,
    ],
    [
      // `name` is a prefix of `names` as text but not as a path.
      'object.read.account.*.name',
      { ...readAccount, propertyPath: 'names' },
      false,
      `denied: no scope chain grants read on account instance ${ID} (property names)`,
    ],
    [
      'object.read.account.*',
      { ...readAccount, propertyPath: 'email' },
      true,
      'allowed: "object.read.account.*" grants read on every account instance',
    ],
  ])('%s vs %j', (chain, request, allowed, explanation) => {
    const decision = checkScope([chain], request);
    expect(decision.allowed).toBe(allowed);
    expect(decision.explanation).toBe(explanation);
    expect(decision.matchedChain).toBe(allowed ? chain : undefined);
    expect(decision.perChain).toHaveLength(1);
    expect(decision.perChain[0]?.matched).toBe(allowed);
  });

  it.each<[string, ScopeRequest, string]>([
    ['object.update', readAccount, 'grants update only, not read'],
    ['object.read.contact', readAccount, 'is for object type contact, not account'],
    [
      'object.read.c_step#c_text',
      { kind: 'object', operation: 'read', objectType: 'c_step', subtype: 'c_choice' },
      'is limited to subtype c_text, not c_choice',
    ],
    [
      'object.read.c_step#c_text',
      { kind: 'object', operation: 'read', objectType: 'c_step' },
      'is limited to subtype c_text, and the request names no subtype',
    ],
    [`object.read.account.${OTHER_ID}`, readAccount, `is limited to instance ${OTHER_ID}, not ${ID}`],
    [
      `object.read.account.${ID}`,
      { kind: 'object', operation: 'read', objectType: 'account' },
      `is limited to instance ${ID}, and the request names no single instance`,
    ],
    ['object.read.account.*.name', { ...readAccount, propertyPath: 'email' }, 'grants property name only, not email'],
    ['view.execute', readAccount, 'is a view scope; the request is an object request'],
  ])('explains why %s does not match', (chain, request, reason) => {
    expect(checkScope([chain], request).perChain).toEqual([{ chain, valid: true, matched: false, reason }]);
  });
});

describe('checkScope: property-limited matches', () => {
  it('allows a whole-object request partially and says which properties', () => {
    const decision = checkScope(['object.read.account.*.name'], readAccount);
    expect(decision).toEqual({
      allowed: true,
      matchedChain: 'object.read.account.*.name',
      propertyLimited: true,
      propertyPaths: ['name'],
      explanation:
        'allowed for property name only: "object.read.account.*.name" grants read on every account instance (property name only); the request is for the whole object, so only name is allowed',
      perChain: [
        {
          chain: 'object.read.account.*.name',
          valid: true,
          matched: true,
          propertyLimited: true,
          propertyPath: 'name',
          reason:
            'grants read on every account instance (property name only); the request is for the whole object, so only name is allowed',
        },
      ],
    });
  });

  it('collects the paths of every property-limited chain', () => {
    const decision = checkScope(
      ['object.read.account.*.name.first', 'object.read.account.*.email', 'object.read.account.*.name', 'admin.read'],
      readAccount,
    );
    expect(decision.allowed).toBe(true);
    expect(decision.propertyLimited).toBe(true);
    expect(decision.propertyPaths).toEqual(['email', 'name']);
    expect(decision.matchedChain).toBe('object.read.account.*.name.first');
    expect(decision.explanation.startsWith('allowed for properties email, name only: ')).toBe(true);
  });

  it('limits a request for a document to the nested paths the chain grants', () => {
    const decision = checkScope(['object.update.account.*.name.first'], {
      ...readAccount,
      operation: 'update',
      propertyPath: 'name',
    });
    expect(decision).toMatchObject({ allowed: true, propertyLimited: true, propertyPaths: ['name.first'] });
    expect(decision.perChain[0]?.reason).toBe(
      'grants update on every account instance (property name.first only); of name, only name.first is allowed',
    );
  });

  it('prefers a full match to a property-limited one, whatever the order', () => {
    const decision = checkScope(['object.read.account.*.name', 'object.read.account'], readAccount);
    expect(decision.allowed).toBe(true);
    expect(decision.propertyLimited).toBeUndefined();
    expect(decision.propertyPaths).toBeUndefined();
    expect(decision.matchedChain).toBe('object.read.account');
    expect(decision.perChain.map((verdict) => verdict.propertyLimited)).toEqual([true, undefined]);
  });
});

describe('checkScope: script, view, deployment and admin chains', () => {
  const route = (identifier?: string, aliases?: string[]): ScopeRequest => ({
    kind: 'script',
    action: 'route',
    ...(identifier ? { identifier } : {}),
    ...(aliases ? { aliases } : {}),
  });

  it.each<Case>([
    ['script', { kind: 'script', action: 'execute' }, true, 'allowed: "script" grants every script execution'],
    ['script.*', route('c_sync'), true, 'allowed: "script.*" grants every script execution'],
    ['script.*', { kind: 'script', action: 'runner' }, true, 'allowed: "script.*" grants every script execution'],
    [
      'script.execute',
      { kind: 'script', action: 'runner' },
      true,
      'allowed: "script.execute" grants every script execution',
    ],
    ['script.execute.*', route('c_sync'), true, 'allowed: "script.execute.*" grants every script execution'],
    ['script.execute.route', route('c_sync'), true, 'allowed: "script.execute.route" grants every route'],
    ['script.execute.route.*', route(), true, 'allowed: "script.execute.route.*" grants every route'],
    [
      'script.execute.route.c_sync',
      route('c_sync'),
      true,
      'allowed: "script.execute.route.c_sync" grants route c_sync',
    ],
    [
      'script.execute.route.c_sync',
      route(ID, ['c_sync']),
      true,
      'allowed: "script.execute.route.c_sync" grants route c_sync',
    ],
    ['script.execute.route.c_sync', route('c_other'), false, 'denied: no scope chain grants script route c_other'],
    ['script.execute.route.c_sync', route(), false, 'denied: no scope chain grants a script route'],
    [
      'script.execute.route',
      { kind: 'script', action: 'runner' },
      false,
      'denied: no scope chain grants the ad-hoc script runner',
    ],
    [
      'script.execute.route',
      { kind: 'script', action: 'execute' },
      false,
      'denied: no scope chain grants script execution',
    ],
    [
      'script.execute.runner',
      { kind: 'script', action: 'runner' },
      true,
      'allowed: "script.execute.runner" grants the ad-hoc script runner',
    ],
    ['script.execute.runner', route('c_sync'), false, 'denied: no scope chain grants script route c_sync'],
    ['view', { kind: 'view', identifier: 'c_my_view' }, true, 'allowed: "view" grants execution of every view'],
    ['view.*', { kind: 'view', identifier: 'c_my_view' }, true, 'allowed: "view.*" grants execution of every view'],
    [
      'view.execute',
      { kind: 'view', identifier: 'c_my_view' },
      true,
      'allowed: "view.execute" grants execution of every view',
    ],
    [
      'view.execute.c_my_view',
      { kind: 'view', identifier: 'c_my_view' },
      true,
      'allowed: "view.execute.c_my_view" grants execution of view c_my_view',
    ],
    [
      'view.*.c_my_view',
      { kind: 'view', identifier: 'c_my_view' },
      true,
      'allowed: "view.*.c_my_view" grants execution of view c_my_view',
    ],
    [
      'view.execute.c_my_view',
      { kind: 'view', identifier: 'C_MY_VIEW' },
      false,
      'denied: no scope chain grants execution of view C_MY_VIEW',
    ],
    [
      `view.execute.${ID}`,
      { kind: 'view', identifier: 'c_my_view', aliases: [ID.toUpperCase()] },
      true,
      `allowed: "view.execute.${ID}" grants execution of view ${ID}`,
    ],
    [
      'view.execute.c_my_view',
      { kind: 'view', identifier: 'c_other' },
      false,
      'denied: no scope chain grants execution of view c_other',
    ],
    [
      'view.execute',
      { kind: 'deployment', identifier: 'c_release' },
      false,
      'denied: no scope chain grants execution of deployment c_release',
    ],
    [
      'deployment.execute',
      { kind: 'deployment', identifier: 'c_release' },
      true,
      'allowed: "deployment.execute" grants execution of every deployment',
    ],
    [
      'deployment.*.c_release',
      { kind: 'deployment', identifier: 'c_release' },
      true,
      'allowed: "deployment.*.c_release" grants execution of deployment c_release',
    ],
    [
      'deployment.execute.c_release',
      { kind: 'deployment', identifier: 'c_hotfix' },
      false,
      'denied: no scope chain grants execution of deployment c_hotfix',
    ],
    ['admin', { kind: 'admin', action: 'update' }, true, 'allowed: "admin" grants admin read and update'],
    ['admin.*', { kind: 'admin', action: 'read' }, true, 'allowed: "admin.*" grants admin read and update'],
    ['admin.read', { kind: 'admin', action: 'read' }, true, 'allowed: "admin.read" grants admin read'],
    ['admin.update', { kind: 'admin', action: 'update' }, true, 'allowed: "admin.update" grants admin update'],
    ['admin.update', { kind: 'admin', action: 'read' }, false, 'denied: no scope chain grants admin read'],
    ['admin.read', { kind: 'admin', action: 'update' }, false, 'denied: no scope chain grants admin update'],
  ])('%s vs %j', (chain, request, allowed, explanation) => {
    const decision = checkScope([chain], request);
    expect(decision.allowed).toBe(allowed);
    expect(decision.explanation).toBe(explanation);
    expect(decision.matchedChain).toBe(allowed ? chain : undefined);
  });

  it.each<[string, ScopeRequest, string]>([
    ['admin.update', { kind: 'admin', action: 'read' }, 'grants admin update only, not read (admin.* grants both)'],
    ['script.execute.route.c_sync', route('c_other'), 'is limited to route c_sync, not c_other'],
    ['script.execute.route.c_sync', route(), 'is limited to route c_sync, and the request names no route'],
    ['script.execute.route', { kind: 'script', action: 'runner' }, 'grants script routes only'],
    ['script.execute.runner', route('c_sync'), 'grants the ad-hoc script runner only'],
    ['view.execute.c_my_view', { kind: 'view', identifier: 'c_other' }, 'is limited to view c_my_view, not c_other'],
    [
      'view.execute',
      { kind: 'deployment', identifier: 'c_release' },
      'is a view scope; the request is a deployment request',
    ],
  ])('explains why %s does not match', (chain, request, reason) => {
    expect(checkScope([chain], request).perChain[0]?.reason).toBe(reason);
  });
});

describe('checkScope: sets of chains', () => {
  it('ignores and reports invalid chains, and still matches the valid ones', () => {
    const decision = checkScope(
      ['object.read.account.name', 'deployment.create', 'object.read.account.*'],
      readAccount,
    );
    expect(decision.allowed).toBe(true);
    expect(decision.matchedChain).toBe('object.read.account.*');
    expect(decision.perChain.slice(0, 2)).toEqual([
      {
        chain: 'object.read.account.name',
        valid: false,
        matched: false,
        reason:
          'invalid chain, ignored: an identifier or * is required before a property path: "name" is not * or a 24-character hex instance id (did you mean object.read.account.*.name?)',
      },
      {
        chain: 'deployment.create',
        valid: false,
        matched: false,
        reason:
          'invalid chain, ignored: deployment.create is not a scope: deployments are objects, so use object.create.deployment instead',
      },
    ]);
  });

  it('denies when only invalid chains could have matched, and counts them', () => {
    const decision = checkScope(['object.read.account.name', 'admin.read'], readAccountName);
    expect(decision.allowed).toBe(false);
    expect(decision.explanation).toBe(
      `denied: no scope chain grants read on account instance ${ID} (property name) (1 invalid chain ignored)`,
    );
    expect(decision.perChain.map((verdict) => [verdict.valid, verdict.matched])).toEqual([
      [false, false],
      [true, false],
    ]);
  });

  it('reports the first full match and every chain it checked', () => {
    const decision = checkScope(['admin.read', 'object.update', 'object.read.account', 'object'], readAccount);
    expect(decision.matchedChain).toBe('object.read.account');
    expect(decision.perChain.map((verdict) => verdict.matched)).toEqual([false, false, true, true]);
  });
});

describe('allowedPropertyPaths', () => {
  it.each<[string[], 'all' | string[]]>([
    [[], []],
    [['*'], 'all'],
    [['object.read.account'], 'all'],
    [['object.read.account.*.name', 'object.read.account'], 'all'],
    [['object.read.account.*.name'], ['name']],
    [
      ['object.read.account.*.name.first', 'object.read.account.*.email', 'object.read.account.*.name'],
      ['email', 'name'],
    ],
    [[`object.read.account.${ID}.email`, `object.read.account.${OTHER_ID}.name`], ['email']],
    [['object.update.account.*.name', 'object.read.contact.*.email', 'admin.*'], []],
    [['object.read.account.name', 'object..account.*.c_score'], ['c_score']],
  ])('%j → %j', (chains, expected) => {
    expect(allowedPropertyPaths(chains, 'account', 'read', ID)).toEqual(expected);
  });

  it('respects the subtype and the absence of an instance id', () => {
    const chains = ['object.read.c_step#c_text.*.c_body', `object.read.c_step.${ID}.c_title`];
    expect(allowedPropertyPaths(chains, 'c_step', 'read', ID, 'c_text')).toEqual(['c_body', 'c_title']);
    expect(allowedPropertyPaths(chains, 'c_step', 'read', ID, 'c_choice')).toEqual(['c_title']);
    expect(allowedPropertyPaths(chains, 'c_step', 'read', undefined, 'c_text')).toEqual(['c_body']);
  });
});

describe('property paths', () => {
  it.each<['all' | string[], string, 'full' | 'partial' | 'none']>([
    ['all', 'anything.at.all', 'full'],
    [['name'], 'name', 'full'],
    [['name'], 'name.first', 'full'],
    [['name.first'], 'name', 'partial'],
    [['name'], 'names', 'none'],
    [['name'], 'email', 'none'],
    [[], 'name', 'none'],
  ])('allowed %j gives %s %s access', (allowed, path, access) => {
    expect(propertyAccess(allowed, path)).toBe(access);
  });

  it('collapses paths covered by a shorter one, sorted and without duplicates', () => {
    expect(collapsePaths(['name.first', 'email', 'name', 'email', 'names.x'])).toEqual(['email', 'name', 'names.x']);
  });
});
