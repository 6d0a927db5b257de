/** The parts of the OpenAPI document the page adjusts (it is otherwise passed on untouched). */
interface Parameter {
  name?: unknown;
  in?: unknown;
  example?: unknown;
  schema?: Record<string, unknown>;
}
export interface OpenApiDocument {
  info?: { description?: string; [key: string]: unknown };
  paths?: Record<string, Record<string, { parameters?: Parameter[] } | unknown>>;
  [key: string]: unknown;
}

const NOTE =
  '"Try it" sends requests as you, in the console\'s session: the browser adds the session cookie, ' +
  'and this page adds the app key and, on writes, the CSRF token. It calls this service only.';

/**
 * The document as the reference shows it to someone signed in to `org`: every `{org}` path
 * parameter defaults to that org (so "try it" works as it stands), and the introduction says how
 * requests are sent.
 */
export function documentFor(source: OpenApiDocument, org: string): OpenApiDocument {
  const doc = structuredClone(source);
  doc.info = { ...doc.info, description: [doc.info?.description, NOTE].filter(Boolean).join('\n\n') };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const parameters = (operation as { parameters?: Parameter[] } | null)?.parameters;
      for (const p of parameters ?? []) {
        if (p.in !== 'path' || p.name !== 'org') continue;
        p.example = org;
        p.schema = { ...p.schema, default: org };
      }
    }
  }
  return doc;
}
