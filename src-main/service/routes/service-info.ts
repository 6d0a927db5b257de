import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { bootstrapOrg } from '../bootstrap.js';
import type { TypedServer } from '../http/route-schemas.js';

export const SERVICE_VERSION = '0.1.0';

/**
 * Unversioned, service-wide routes (docs/API.md#addressing-and-envelopes): health, what the console needs to start, and
 * the first-run setup that is open only while no org exists.
 */
export function serviceInfoRoutes(svc: Service, defaultOrg?: string) {
  let setupRunning = false;
  return async (server: TypedServer) => {
    server.get('/_service/health', async () => ({ object: 'result', data: { ok: true } }));

    server.get('/_service/info', async () => {
      const orgs = svc.orgs.list();
      return {
        object: 'result',
        data: {
          setupRequired: orgs.length === 0,
          version: SERVICE_VERSION,
          // The org code the service was started for (`--org`), which first-run setup proposes.
          defaultOrg: defaultOrg ?? null,
          orgs: orgs.map((o) => ({ code: o.code, name: o.name, consoleAppKey: o.settings.consoleAppKey ?? null })),
        },
      };
    });

    server.post(
      '/_service/setup',
      {
        schema: {
          body: {
            type: 'object',
            required: ['org', 'email', 'password'],
            additionalProperties: false,
            properties: {
              org: { type: 'string', minLength: 1, maxLength: 63 },
              name: { type: 'string', maxLength: 200 },
              email: { type: 'string', minLength: 3, maxLength: 254 },
              password: { type: 'string', minLength: 1, maxLength: 1024 },
              adminName: {
                type: 'object',
                additionalProperties: false,
                properties: { first: { type: 'string', maxLength: 100 }, last: { type: 'string', maxLength: 100 } },
              },
            },
          } as const,
        },
      },
      async (request) => {
        if (setupRunning || svc.orgs.list().length > 0) {
          throw fault('accessDenied', 'setupDone', { reason: 'Setup has already been done.' });
        }
        const { body } = request;
        setupRunning = true; // two set-up forms submitted at once must not create two orgs
        try {
          const { org, consoleAppKey } = await bootstrapOrg(svc, {
            code: body.org,
            name: body.name ?? body.org,
            adminEmail: body.email,
            adminPassword: body.password,
            ...(body.adminName ? { adminName: body.adminName } : {}),
          });
          return { object: 'result', data: { org: org.code, consoleAppKey } };
        } finally {
          setupRunning = false;
        }
      },
    );
  };
}
