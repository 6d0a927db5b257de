/** The cap on an object's properties, at creation, on adding one, and over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultError } from '../../../src-shared/faults.js';
import type { ObjectDef, PropertyDef } from '../../../src-shared/schema/types.js';
import { createHarness, TestClient, type Harness } from '../testing/harness.js';
import {
  addProperty,
  checkNewObject,
  checkPropertyCount,
  countProperties,
  MAX_PROPERTIES,
} from './definition-rules.js';

const scalars = (n: number, from = 0): PropertyDef[] =>
  Array.from({ length: n }, (_, i) => ({ name: `c_p${from + i}`, type: 'String', indexed: true }));
/** `documents` Documents of `each` indexed scalars: 1 + each properties apiece. */
const documents = (n: number, each: number): PropertyDef[] =>
  Array.from({ length: n }, (_, i) => ({ name: `c_d${i}`, type: 'Document', properties: scalars(each) }));

/** The fault `fn` throws, reduced to what callers switch on. */
function faultOf(fn: () => unknown) {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (!(e instanceof FaultError)) throw e;
    return { errCode: e.fault.errCode, path: e.fault.path };
  }
}
const TOO_MANY = { errCode: 'service.validation.definition', path: 'properties' };

describe('property cap', () => {
  it('counts nested properties, a Document once plus its own', () => {
    expect(countProperties(scalars(3))).toBe(3);
    expect(countProperties([...documents(2, 4), ...scalars(1)])).toBe(11);
  });

  it('holds at creation: at most MAX_PROPERTIES, top level or nested', () => {
    expect(checkNewObject({ name: 'c_ok', properties: scalars(MAX_PROPERTIES) }).properties).toHaveLength(
      MAX_PROPERTIES,
    );
    expect(faultOf(() => checkNewObject({ name: 'c_wide', properties: scalars(MAX_PROPERTIES + 1) }))).toEqual(
      TOO_MANY,
    );
    expect(faultOf(() => checkNewObject({ name: 'c_wide', properties: scalars(2000) }))).toEqual(TOO_MANY);
    // 10 Documents of 25 indexed scalars: only 10 at the top level, 260 in all.
    expect(faultOf(() => checkNewObject({ name: 'c_deep', properties: documents(10, 25) }))).toEqual(TOO_MANY);
  });

  it('holds on adding one, nested properties included', () => {
    const def: ObjectDef = { name: 'c_x', collection: 'c_xs', label: 'x', custom: true, properties: scalars(190) };
    expect(addProperty(def, documents(1, 9)[0]!).properties).toHaveLength(191);
    expect(faultOf(() => addProperty(def, documents(1, 10)[0]!))).toMatchObject({
      errCode: 'service.invalidArgument.definition',
    });
  });

  it('lets a definition already past it be saved again, as long as it does not grow', () => {
    const over = scalars(MAX_PROPERTIES + 50);
    expect(faultOf(() => checkPropertyCount(over, over.length))).toBeUndefined();
    expect(faultOf(() => checkPropertyCount(scalars(MAX_PROPERTIES + 51), over.length))).toEqual(TOO_MANY);
    expect(faultOf(() => checkPropertyCount(over))).toEqual(TOO_MANY);
  });
});

describe('POST /schemas', () => {
  let h: Harness;
  let admin: TestClient;
  beforeAll(async () => {
    h = await createHarness();
    admin = new TestClient(h);
    await admin.login();
  }, 60_000);
  afterAll(async () => h.close());

  it('refuses too many properties with a 400 fault naming properties (was a 500 at ~2000 columns)', async () => {
    for (const properties of [scalars(300), scalars(2100), documents(100, 20)]) {
      const res = await admin.post('/schemas', { name: 'c_z', properties });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ object: 'fault', ...TOO_MANY });
    }
    expect((await admin.get('/schemas/c_z')).statusCode).toBe(404);
    expect((await admin.post('/schemas', { name: 'c_z', properties: scalars(MAX_PROPERTIES) })).statusCode).toBe(200);
  });
});
