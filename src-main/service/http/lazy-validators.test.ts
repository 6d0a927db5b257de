import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness.js';
import { lazyValidators } from './lazy-validators.js';

describe('lazyValidators', () => {
  const bodySchema = { type: 'object', required: ['email'], properties: { email: { type: 'string' } } };

  it('compiles a route validator on its first request and validates as Fastify would', async () => {
    const v = lazyValidators();
    const server = Fastify({ schemaController: { compilersFactory: { buildValidator: v.buildValidator } } });
    server.post('/in', { schema: { body: bodySchema } }, () => 'in');
    await server.ready();
    const refused = await server.inject({ method: 'POST', url: '/in', payload: { name: 'x' } });
    const accepted = await server.inject({ method: 'POST', url: '/in', payload: { email: 'x' } });
    await server.close();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain("must have required property 'email'");
    expect(accepted.statusCode).toBe(200);
  });

  it('does not compile at start-up: a schema Ajv refuses fails on first use, or by compileAll', async () => {
    const broken = { type: 'object', properties: { a: { type: 'no such type' } } };
    const v = lazyValidators();
    const server = Fastify({ schemaController: { compilersFactory: { buildValidator: v.buildValidator } } });
    server.post('/in', { schema: { body: broken } }, () => 'in');
    await expect(server.ready()).resolves.toBeDefined();
    expect(() => v.compileAll()).toThrow(/type/);
    await server.close();
  });
});

describe("the service's routes", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
    await h.server.ready();
  });
  afterAll(async () => h.close());

  it('all have schemas Ajv compiles (they are compiled lazily in production)', () => {
    expect(h.server.compileValidators()).toBeGreaterThan(20);
  });
});
