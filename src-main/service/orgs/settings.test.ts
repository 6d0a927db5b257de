import { describe, expect, it } from 'vitest';
import { FaultError } from '../../../src-shared/faults.js';
import { DEFAULT_ORG_SETTINGS, ORG_NUMBER_RANGES, storedOrgSettings, validateOrgSettings } from './settings.js';

function faultOf(input: unknown) {
  try {
    validateOrgSettings(input, 'settings.');
  } catch (err) {
    if (err instanceof FaultError) return err.fault;
    throw err;
  }
  throw new Error('accepted');
}

describe('validateOrgSettings (issue 38 low 1)', () => {
  it('takes every setting at both ends of its range', () => {
    for (const [name, [min, max]] of Object.entries(ORG_NUMBER_RANGES)) {
      expect(validateOrgSettings({ [name]: min })).toEqual({ [name]: min });
      expect(validateOrgSettings({ [name]: max })).toEqual({ [name]: max });
    }
    expect(validateOrgSettings({ verifyNewLocations: true })).toEqual({ verifyNewLocations: true });
  });

  it('refuses values out of range, fractions, non-finite numbers and wrong types, naming each', () => {
    const fault = faultOf({
      lockAttempts: 0,
      lockDuration: -10,
      sessionRetentionDays: 2.5,
      anonymousRequestsPerOrg: Infinity,
      outboxRetentionDays: '30',
      registrationEnabled: 1,
      consoleAppKey: 'x',
    });
    expect(fault.errCode).toBe('service.validation.settings');
    expect(fault.faults?.map((f) => [f.path, f.errCode])).toEqual([
      ['settings.lockAttempts', 'service.validation.outOfRange'],
      ['settings.lockDuration', 'service.validation.outOfRange'],
      ['settings.sessionRetentionDays', 'service.validation.invalidType'],
      ['settings.anonymousRequestsPerOrg', 'service.validation.invalidType'],
      ['settings.outboxRetentionDays', 'service.validation.invalidType'],
      ['settings.registrationEnabled', 'service.validation.invalidType'],
      ['settings.consoleAppKey', 'service.validation.unknownProperty'],
    ]);
    expect(faultOf([]).errCode).toBe('service.validation.settings');
  });

  it("takes scripts' http switch and host list, and refuses a list that is not hosts (issue 40)", () => {
    expect(validateOrgSettings({ scriptHttpEnabled: true, scriptHttpHosts: ['127.0.0.1:8080', '[::1]'] })).toEqual({
      scriptHttpEnabled: true,
      scriptHttpHosts: ['127.0.0.1:8080', '[::1]'],
    });
    expect(faultOf({ scriptHttpHosts: ['http://x.test/'] }).faults?.[0]?.path).toBe('settings.scriptHttpHosts');
    expect(faultOf({ scriptHttpHosts: 'x.test' }).faults?.[0]?.errCode).toBe('service.validation.invalidType');
    expect(faultOf({ scriptConfig: {} }).faults?.[0]?.errCode).toBe('service.validation.unknownProperty');
  });
});

describe('storedOrgSettings', () => {
  it('replaces stored values the validator would refuse by their defaults, and keeps the rest', () => {
    const settings = storedOrgSettings({ lockAttempts: null, lockDuration: 0, consoleAppKey: 'k', scriptLimits: {} });
    expect(settings).toEqual({ ...DEFAULT_ORG_SETTINGS, lockDuration: 0, consoleAppKey: 'k', scriptLimits: {} });
  });
});
