import { describe, expect, it } from 'vitest';
import { documentFor } from './reference-document';

describe('the document the reference shows', () => {
  it('defaults every org path parameter to the signed-in org and says how requests are sent', () => {
    const source = {
      info: { description: 'The API.' },
      paths: {
        '/{org}/v2/accounts/{id}': {
          get: {
            parameters: [
              { name: 'org', in: 'path', schema: { type: 'string' } },
              { name: 'id', in: 'path', schema: { type: 'string' } },
            ],
          },
        },
        '/_service/info': { get: {} },
      },
    };
    const doc = documentFor(source, 'acme');
    const [org, id] = (doc.paths!['/{org}/v2/accounts/{id}']!.get as { parameters: object[] }).parameters;
    expect(org).toEqual({ name: 'org', in: 'path', example: 'acme', schema: { type: 'string', default: 'acme' } });
    expect(id).toEqual({ name: 'id', in: 'path', schema: { type: 'string' } });
    expect(doc.info?.description).toMatch(/^The API\.\n\n"Try it" sends requests as you/);
    // The source is not changed.
    expect(source.paths['/{org}/v2/accounts/{id}'].get.parameters[0]).not.toHaveProperty('example');
  });
});
