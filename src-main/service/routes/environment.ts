import { fault } from '../../../src-shared/faults.js';
import type { Service } from '../service.js';
import { requirePrincipal } from '../http/context.js';
import { ADMIN_ONLY } from '../http/org-scope.js';
import { requestActor } from '../http/audit.js';
import { auditImport } from '../audit/record.js';
import { ANY_BODY, ANY_QUERY, memberOf, type TypedServer } from '../http/route-schemas.js';
import { parseManifest } from '../environment/manifest.js';
import { exportDocuments } from '../environment/export.js';
import { MAX_IMPORT_BYTES, readImportStream } from '../environment/ndjson-input.js';
import { importEnvironment } from '../environment/import.js';

const ndjson = (docs: unknown[]) => docs.map((d) => JSON.stringify(d)).join('\n') + '\n';

/**
 * Configuration as files (docs/configuration.md), org administrators only:
 *   POST /developer/environment/export  {manifest}       → NDJSON: resources, manifest, manifest-dependencies, manifest-exports
 *   POST /developer/environment/import  NDJSON (gzip ok) → NDJSON manifest.log, ending with stage complete
 *        ?backup=true keeps a copy of the database first; ?dryRun=true validates and reports, writes nothing
 *        (a bare `?dryRun` is true too; any value but true/false/1/0 is refused);
 *        ?triggers=true runs the imported records' triggers (mdctl's `env import --triggers`; none by default).
 * An import that fails validation answers one fault listing each resource and its reason.
 */
export function environmentRoutes(svc: Service) {
  return async (server: TypedServer) => {
    // The import body is a file, not a JSON document: read it whole (gzip is decompressed later).
    for (const type of ['application/x-ndjson', 'application/octet-stream', 'application/gzip', 'text/plain']) {
      server.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES }, (_req, body, done) =>
        done(null, body),
      );
    }

    server.post(
      '/developer/environment/export',
      { ...ADMIN_ONLY, schema: { body: ANY_BODY } },
      async (request, reply) => {
        const manifest = parseManifest(memberOf(request.body, 'manifest') ?? { includes: ['*'] });
        return reply.type('application/x-ndjson').send(ndjson(exportDocuments(svc, request.ctx.org, manifest)));
      },
    );

    server.post(
      '/developer/environment/import',
      { ...ADMIN_ONLY, bodyLimit: MAX_IMPORT_BYTES, schema: { body: ANY_BODY, querystring: ANY_QUERY } },
      async (request, reply) => {
        const principal = requirePrincipal(request);
        if (!Buffer.isBuffer(request.body)) {
          throw fault('invalidArgument', 'import', {
            reason: 'Send the export as the body, with Content-Type application/x-ndjson (gzip allowed).',
          });
        }
        const { query } = request;
        const result = await importEnvironment(svc, request.ctx.org, await readImportStream(request.body), {
          actorId: principal.accountId,
          backup: queryFlag(query, 'backup'),
          dryRun: queryFlag(query, 'dryRun'),
          triggers: queryFlag(query, 'triggers'),
        });
        if (!queryFlag(query, 'dryRun')) auditImport(svc, request.ctx.org, requestActor(request), result.changes);
        return reply.type('application/x-ndjson').send(ndjson(result.log));
      },
    );
  };
}

/**
 * A yes/no query flag. Reading only `=== 'true'` made `?dryRun=yes` or `?dryRun=1` a real import,
 * the very write the caller meant to try: anything that is not clearly true or false is refused.
 */
export function queryFlag(query: Record<string, unknown>, name: string): boolean {
  const value = query[name];
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1' || value === '') return true;
  throw fault('invalidArgument', name, { path: name, reason: `${name} is true or false.` });
}
