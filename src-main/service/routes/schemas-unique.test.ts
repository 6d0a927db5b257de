import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';

let h: Harness;
let admin: TestClient;
beforeEach(async () => {
  h = await createHarness();
  admin = new TestClient(h);
  await admin.login();
});
afterEach(async () => h.close());

/** The names of the indexes SQLite has on a collection table, sorted. */
function indexesOf(table: string): string[] {
  const rows = h.svc.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite%'")
    .all(table) as { name: string }[];
  return rows.map((r) => r.name).sort();
}

const codeOf = async () =>
  (await admin.get('/schemas/c_auditu')).json().properties.find((p: { name: string }) => p.name === 'c_code');

describe('PATCH /schemas unique flag with live data', () => {
  it('refuses unique:true over duplicate values with a fault naming the property, and allows it once they are gone', async () => {
    await admin.post('/schemas', { name: 'c_auditu', properties: [{ name: 'c_code', type: 'String', indexed: true }] });
    const first = (await admin.post('/c_auditus', { c_code: 'dup' })).json();
    expect((await admin.post('/c_auditus', { c_code: 'dup' })).statusCode).toBe(200);
    const before = await codeOf();

    const refused = await admin.patch('/schemas/c_auditu', { properties: { c_code: { unique: true } } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ object: 'fault', code: 'kValidationError', path: 'c_code' });
    expect(refused.json().reason).toMatch(/c_code has duplicate values/);
    expect(await codeOf()).toEqual(before);
    // Rolled back with the definition: no unique index, and the plain one is still there.
    expect(indexesOf('o1_c_auditu').some((n) => n.startsWith('ux_'))).toBe(false);
    expect(indexesOf('o1_c_auditu')).toContain('ix_o1_c_auditu__c_code');

    expect((await admin.delete(`/c_auditus/${first._id}`)).statusCode).toBe(200);
    const allowed = await admin.patch('/schemas/c_auditu', { properties: { c_code: { unique: true } } });
    expect(allowed.statusCode).toBe(200);
    expect(await codeOf()).toMatchObject({ unique: true });
    const again = await admin.post('/c_auditus', { c_code: 'dup' });
    expect(again.json()).toMatchObject({ code: 'kExists', path: 'c_code' });
  });

  it('unique:false drops the unique index, and unique:true again restores it', async () => {
    const mrn = { c_name: 'x', c_mrn: 'MRN-1' };
    expect((await admin.post('/c_patientfiles', mrn)).statusCode).toBe(200);
    expect((await admin.post('/c_patientfiles', mrn)).json()).toMatchObject({ code: 'kExists', path: 'c_mrn' });

    const off = await admin.patch('/schemas/c_patientfile', { properties: { c_mrn: { unique: false } } });
    expect(off.statusCode).toBe(200);
    expect(indexesOf('o1_c_patientfile')).toContain('ix_o1_c_patientfile__c_mrn');
    expect(indexesOf('o1_c_patientfile')).not.toContain('ux_o1_c_patientfile__c_mrn');
    const second = await admin.post('/c_patientfiles', mrn);
    expect(second.statusCode).toBe(200);

    // Unique again while the duplicate exists: refused; once it is gone, duplicates are refused.
    const blocked = await admin.patch('/schemas/c_patientfile', { properties: { c_mrn: { unique: true } } });
    expect(blocked.json()).toMatchObject({ code: 'kValidationError', path: 'c_mrn' });
    expect((await admin.delete(`/c_patientfiles/${second.json()._id}`)).statusCode).toBe(200);
    const on = await admin.patch('/schemas/c_patientfile', { properties: { c_mrn: { unique: true } } });
    expect(on.statusCode).toBe(200);
    expect(indexesOf('o1_c_patientfile')).not.toContain('ix_o1_c_patientfile__c_mrn');
    expect((await admin.post('/c_patientfiles', mrn)).json()).toMatchObject({ code: 'kExists', path: 'c_mrn' });
  });

  it('indexed:false drops the index of a property no longer indexed', async () => {
    await admin.post('/schemas', { name: 'c_auditu', properties: [{ name: 'c_code', type: 'String', indexed: true }] });
    expect(indexesOf('o1_c_auditu')).toContain('ix_o1_c_auditu__c_code');
    const off = await admin.patch('/schemas/c_auditu', { properties: { c_code: { indexed: false } } });
    expect(off.statusCode).toBe(200);
    expect(indexesOf('o1_c_auditu')).not.toContain('ix_o1_c_auditu__c_code');
    expect((await admin.post('/c_auditus', { c_code: 'a' })).statusCode).toBe(200);
  });
});
