import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ANY_BODY, ANY_QUERY, pathParams } from './route-schemas.js';
import { dropTypeOnlySchemas, pathParameterNames, refusesNothing } from './type-only-schemas.js';

describe('refusesNothing', () => {
  const url = '/:org/v2/:collection/:id/*';
  it.each([
    ['params', pathParams('collection', 'id'), true],
    ['params', pathParams('collection', 'id', '*'), true],
    ['params', pathParams('collection', 'nope'), false],
    ['params', { type: 'object', properties: { id: { type: 'string', minLength: 24 } } }, false],
    ['params', { type: 'object', properties: { id: { type: 'integer' } } }, false],
    ['params', { type: 'object', additionalProperties: false, properties: {} }, false],
    ['querystring', ANY_QUERY, true],
    ['querystring', { type: 'object', required: ['x'] }, false],
    ['body', ANY_BODY, true],
    ['body', { type: 'object' }, false],
    ['body', undefined, false],
  ] as const)('%s %j → %s', (part, schema, expected) => {
    expect(refusesNothing(part, schema, url)).toBe(expected);
  });

  it('reads the path parameters of a route URL', () => {
    expect([...pathParameterNames(url)]).toEqual(['org', 'collection', 'id', '*']);
  });
});

describe('dropTypeOnlySchemas on a server', () => {
  /** The schema parts Fastify compiled a validator for, per route. */
  async function compiledParts(): Promise<string[]> {
    const compiled: string[] = [];
    const server = Fastify();
    server.setValidatorCompiler(({ httpPart, url }) => {
      compiled.push(`${url} ${httpPart ?? ''}`);
      return () => true;
    });
    server.addHook('onRoute', dropTypeOnlySchemas);
    server.get(
      '/:org/v2/:collection/:id',
      { schema: { params: pathParams('collection', 'id'), querystring: ANY_QUERY } },
      () => 'read',
    );
    server.post('/:org/v2/:collection', { schema: { params: pathParams('collection'), body: ANY_BODY } }, () => 'made');
    server.post('/:org/v2/login', { schema: { body: { type: 'object', required: ['email'] } } }, () => 'in');
    await server.ready();
    await server.close();
    return compiled;
  }

  it('compiles validators only for the parts that can refuse a request', async () => {
    expect(await compiledParts()).toEqual(['/:org/v2/login body']);
  });

  it('leaves a refusing schema refusing', async () => {
    const server = Fastify();
    server.addHook('onRoute', dropTypeOnlySchemas);
    server.post('/in', { schema: { body: { type: 'object', required: ['email'] } } }, () => 'in');
    const refused = await server.inject({ method: 'POST', url: '/in', payload: { name: 'x' } });
    const accepted = await server.inject({ method: 'POST', url: '/in', payload: { email: 'x' } });
    await server.close();
    expect(refused.statusCode).toBe(400);
    expect(accepted.statusCode).toBe(200);
  });
});
