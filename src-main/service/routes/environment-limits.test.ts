/** Environment import against the limits a schema route enforces: the property cap. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PropertyDef } from '../../../src-shared/schema/types.js';
import { createHarness, type Harness, type TestClient } from '../testing/harness.js';
import { exportOf, importInto, ndjsonLines, twoOrgClients } from '../testing/environment-testing.js';
import { MAX_PROPERTIES } from '../objects/definition-rules.js';

let h: Harness;
let a: TestClient;
let b: TestClient;

beforeAll(async () => {
  h = await createHarness();
  ({ a, b } = await twoOrgClients(h));
  const res = await a.post('/schemas', { name: 'c_wide', properties: scalars(10) });
  expect(res.statusCode, res.body).toBe(200);
}, 60_000); // two orgs (key pairs, password hashes): slow on a loaded machine
afterAll(async () => h.close());

function scalars(n: number): PropertyDef[] {
  return Array.from({ length: n }, (_, i) => ({ name: `c_p${i}`, type: 'String', indexed: true }));
}

/** An export of `c_wide` from `a` whose object document carries `properties` instead. */
async function wideExport(properties: PropertyDef[]): Promise<string> {
  const docs = ndjsonLines(await exportOf(a, { objects: { includes: ['c_wide'] } }));
  const object = docs.find((d) => d.resource === 'object.c_wide');
  expect(object, 'the export holds the object').toBeDefined();
  object!.properties = properties;
  return docs.map((d) => JSON.stringify(d)).join('\n');
}

const orgId = (code: string) => h.svc.orgs.byCode(code)!.id;
const propertyCount = (code: string) => h.svc.defs.byName(orgId(code), 'c_wide')?.properties.length;

function expectCapFault(res: { statusCode: number; body: string; json(): Record<string, unknown> }) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ object: 'fault', errCode: 'service.validation.import' });
  expect(res.json().faults).toEqual([
    expect.objectContaining({
      errCode: 'service.validation.definition',
      path: 'object.c_wide',
      reason: expect.stringContaining(`properties: An object has at most ${MAX_PROPERTIES} properties`),
    }),
  ]);
}

describe('environment import, property cap', () => {
  it('refuses a new object past the cap (2102 indexed properties) and creates nothing', async () => {
    expectCapFault(await importInto(b, await wideExport(scalars(2102))));
    expectCapFault(await importInto(b, await wideExport(scalars(MAX_PROPERTIES + 1))));
    expect(propertyCount('other')).toBeUndefined();
  });

  it('refuses growing an existing object past the cap, and leaves it as it was', async () => {
    expectCapFault(await importInto(a, await wideExport(scalars(MAX_PROPERTIES + 1))));
    expect(propertyCount('demo')).toBe(10);
  });

  it('refuses an object that defines a property twice, naming it', async () => {
    const res = await importInto(b, await wideExport([...scalars(3), { name: 'c_p1', type: 'Number' }]));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().faults).toEqual([
      expect.objectContaining({ path: 'object.c_wide', reason: expect.stringContaining('c_p1 is defined twice') }),
    ]);
    expect(h.svc.defs.byName(orgId('other'), 'c_wide')).toBeUndefined();
  });

  it("refuses changing a property's type (as PATCH /schemas cannot), and leaves the object as it was", async () => {
    const changed = scalars(10).map((p, i): PropertyDef => (i === 0 ? { ...p, type: 'Number' } : p));
    const res = await importInto(a, await wideExport(changed));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().faults).toEqual([
      expect.objectContaining({ path: 'object.c_wide', reason: expect.stringContaining('c_p0 is String here') }),
    ]);
    expect(h.svc.defs.byName(orgId('demo'), 'c_wide')!.properties[0]).toMatchObject({ type: 'String' });
  });

  it('takes an object of exactly the cap', async () => {
    const res = await importInto(b, await wideExport(scalars(MAX_PROPERTIES)));
    expect(res.statusCode, res.body).toBe(200);
    expect(ndjsonLines(res.body).at(-1)).toMatchObject({ stage: 'complete' });
    expect(propertyCount('other')).toBe(MAX_PROPERTIES);
  });

  it('re-imports an object already past the cap (saved before it held) as long as it does not grow', async () => {
    const def = h.svc.defs.byName(orgId('demo'), 'c_wide')!;
    // Not indexed: only its definition is past the cap, its table stays as it was made.
    const over = scalars(MAX_PROPERTIES + 5).map((p) => ({ ...p, indexed: false, custom: true }));
    h.svc.defs.save(orgId('demo'), { ...def, properties: over });
    // A change (an unchanged resource is not applied at all) that keeps the count.
    const relabelled = over.map((p, i) => (i === 0 ? { ...p, label: 'First' } : p));
    const res = await importInto(a, await wideExport(relabelled));
    expect(res.statusCode, res.body).toBe(200);
    expect(ndjsonLines(res.body)).toContainEqual(
      expect.objectContaining({ resource: 'object.c_wide', change: 'changed' }),
    );
    expect(h.svc.defs.byName(orgId('demo'), 'c_wide')!.properties[0]).toMatchObject({ label: 'First' });
    expect(propertyCount('demo')).toBe(MAX_PROPERTIES + 5);
    expectCapFault(await importInto(a, await wideExport([...over, { name: 'c_more', type: 'String' }])));
  });
});
