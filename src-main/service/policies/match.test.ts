import { describe, expect, it } from 'vitest';
import { policyOf, type PolicyDef } from './policy-def.js';
import { triggeredBy, type RequestFacts } from './match.js';
import { compilePaths } from './patterns.js';
import type { ScriptRegistration } from '../scripting/language/registrations.js';
import type { StaticValue } from '../scripting/language/static-value.js';

const reg = (configuration: Record<string, StaticValue>, field = false): ScriptRegistration => ({
  type: 'policy',
  configuration,
  weight: 0,
  metadata: {
    className: 'P',
    methodName: 'm',
    static: true,
    loc: { line: 3, column: 5 },
    ...(field ? { field: true as const } : {}),
  },
});
const policy = (c: Record<string, StaticValue>, field = true): PolicyDef => policyOf('lib1', reg(c, field));
const facts = (over: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'get',
  path: '/routes/x',
  ip: '127.0.0.1',
  resolveAcl: (acl) => acl.map((e) => (e === 'role.administrator' ? 'role.r_admin' : e)),
  ...over,
});

describe('paths', () => {
  it("reads the original's path patterns: params, wildcards, any case, a trailing slash", () => {
    const re = compilePaths(['/routes/c_things/:id', '/accounts/*']);
    expect(re.test('/routes/c_things/42')).toBe(true);
    expect(re.test('/ROUTES/C_THINGS/42/')).toBe(true);
    expect(re.test('/routes/c_things/42/more')).toBe(false);
    expect(re.test('/routes/c_things')).toBe(false);
    expect(re.test('/accounts/me/logout')).toBe(true);
    // Dots and other pattern characters of a literal path match only themselves.
    expect(compilePaths(['/routes/a.b']).test('/routes/aXb')).toBe(false);
  });

  it('reads a regular expression literal as one, and refuses one that is not valid', () => {
    expect(policy({ paths: { $expression: '/^\\/routes\\/c_(a|b)$/' } }).paths?.test('/routes/c_b')).toBe(true);
    expect(() => policy({ paths: { $expression: '/(/' } })).toThrow(/Line 3, column 5: @policy P\.m: paths:/);
  });

  it('matches in time linear in the path: a backtracking pattern cannot stall every org (RE2)', () => {
    // With a backtracking engine, (a+)+$ against 40 a's and a b takes about 2^40 steps.
    const hostile = policy({ paths: { $expression: '/^\\/(a+)+$/' } });
    expect(hostile.paths?.test(`/${'a'.repeat(40)}b`)).toBe(false);
    expect(hostile.paths?.test(`/${'a'.repeat(40)}`)).toBe(true);
  });

  it('refuses look-around and back-references, which RE2 does not run, naming paths', () => {
    expect(() => policy({ paths: { $expression: '/^\\/(?!admin)/' } })).toThrow(/@policy P\.m: paths:/);
    expect(() => policy({ paths: { $expression: '/(a)\\1/' } })).toThrow(/@policy P\.m: paths:/);
  });
});

describe('matching', () => {
  it('applies when every matcher holds (and), or when one does (or); never without a matcher', () => {
    const both = policy({ methods: ['post'], paths: '/routes/x' });
    expect(triggeredBy(both, facts({ method: 'post' }))).toEqual(['methods', 'paths']);
    expect(triggeredBy(both, facts())).toEqual([]);
    const either = policy({ methods: ['post'], paths: '/routes/x', condition: 'or' });
    expect(triggeredBy(either, facts())).toEqual(['paths']);
    expect(triggeredBy(policy({}), facts())).toEqual([]);
  });

  it('IP lists: a whitelist applies to addresses outside it, a blacklist to addresses inside', () => {
    const white = policy({ ipWhitelist: ['10.0.0.0/8'] });
    expect(triggeredBy(white, facts({ ip: '10.1.2.3' }))).toEqual([]);
    expect(triggeredBy(white, facts({ ip: '127.0.0.1' }))).toEqual(['ipWhitelist']);
    const black = policy({ ipBlacklist: ['127.0.0.1'] });
    expect(triggeredBy(black, facts({ ip: '::ffff:127.0.0.1' }))).toEqual(['ipBlacklist']);
    expect(triggeredBy(black, facts({ ip: '127.0.0.2' }))).toEqual([]);
    expect(() => policy({ ipBlacklist: ['not-an-ip'] })).toThrow(/ipBlacklist: not-an-ip is not an IP address/);
  });

  it('app and acl lists', () => {
    const app = { key: 'k1', name: 'c_portal', id: '7' };
    expect(triggeredBy(policy({ appBlacklist: ['c_portal'] }), facts({ app }))).toEqual(['appBlacklist']);
    expect(triggeredBy(policy({ appWhitelist: ['k1'] }), facts({ app }))).toEqual([]);
    expect(triggeredBy(policy({ appWhitelist: ['k1'] }), facts())).toEqual(['appWhitelist']);
    const admin = { accountId: 'a1', roleIds: new Set(['r_admin']) };
    const onlyAdmins = policy({ aclWhitelist: ['role.administrator'] });
    expect(triggeredBy(onlyAdmins, facts({ principal: admin }))).toEqual([]);
    expect(triggeredBy(onlyAdmins, facts())).toEqual(['aclWhitelist']);
    const noAnonymous = policy({ aclBlacklist: [{ type: 'account', target: '000000000000000000000001' }] });
    expect(triggeredBy(noAnonymous, facts())).toEqual(['aclBlacklist']);
  });
});

describe('policyOf', () => {
  it("has the original's defaults: a field denies with accessDenied.policy, a method is a Script", () => {
    const field = policy({ paths: '/routes/x' });
    expect(field).toMatchObject({ action: 'Deny', priority: 0, halt: false, condition: 'and', active: true });
    expect(field.fault).toEqual({
      category: 'accessDenied',
      detail: 'policy',
      status: 403,
      reason: 'Access denied by policy.',
    });
    expect(policy({ paths: '/x' }, false).action).toBe('Script');
    const custom = policy({ faultCode: 'service.notFound.thing', faultStatusCode: 404, faultReason: 'Gone.' });
    expect(custom.fault).toEqual({ category: 'notFound', detail: 'thing', status: 404, reason: 'Gone.' });
    // mdctl's policy template names the code rather than the errCode.
    expect(policy({ faultCode: 'kAccessDenied' }).fault).toMatchObject({ category: 'accessDenied' });
  });

  it('refuses what it would not apply, naming the option', () => {
    expect(() => policy({ if: { $eq: [1, 1] } })).toThrow(/the option if is not supported/);
    expect(() => policy({ action: 'Transform' })).toThrow(/the action Transform is not supported/);
    expect(() => policy({ action: 'Pipeline' })).toThrow(/the action Pipeline is not supported/);
    expect(() => policy({ action: 'Script' })).toThrow(/a Script policy decorates a method/);
    expect(() => policy({ methods: ['options'] })).toThrow(/methods are among get, patch, post, put, delete/);
    expect(() => policy({ faultStatusCode: 500 })).toThrow(/faultStatusCode is one of/);
    expect(() => policy({ faultCode: 'service.nonsense.x' })).toThrow(
      /faultCode service\.nonsense\.x is not a fault code/,
    );
    expect(() => policy({ action: 'Redirect', redirectUrl: 'http://example.test/' })).toThrow(/redirectUrl/);
    expect(() => policy({ colour: 'red' })).toThrow(/the option colour is not one of the original's/);
    expect(policy({ action: 'Redirect', redirectUrl: '/routes/y' }).redirect).toEqual({
      url: '/routes/y',
      status: 307,
    });
  });
});
