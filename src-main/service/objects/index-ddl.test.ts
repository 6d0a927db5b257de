import { describe, expect, it } from 'vitest';
import { FaultError } from '../../../src-shared/faults.js';
import { uniqueWriteFault } from './index-ddl.js';

const failure = (message: string) => Object.assign(new Error(message), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
const pathOf = (err: unknown, paths = new Map<string, string>()) => {
  const f = uniqueWriteFault(err, paths);
  return f instanceof FaultError ? f.fault.path : undefined;
};

describe('uniqueWriteFault', () => {
  it('names the property of an expression index, a key column (a reference by its name) or _id', () => {
    const paths = new Map([['ux_o1_c_x__c_code', 'c_code']]);
    expect(pathOf(failure("UNIQUE constraint failed: index 'ux_o1_c_x__c_code'"), paths)).toBe('c_code');
    expect(pathOf(failure('UNIQUE constraint failed: o1_c_x.k.c_code'))).toBe('c_code');
    expect(pathOf(failure('UNIQUE constraint failed: o1_c_x.k.c_owner._id'))).toBe('c_owner');
    expect(pathOf(failure('UNIQUE constraint failed: o1_c_x._id'))).toBe('_id');
  });

  it('leaves other errors alone', () => {
    expect(uniqueWriteFault(new Error('disk I/O error'), new Map())).toBeUndefined();
    expect(uniqueWriteFault(undefined, new Map())).toBeUndefined();
  });
});
