// The folders of the service (src-main/service/<folder>) and which may import which: the one
// source of the rule. `scripts/check-cycles.mjs` (run by `npm run lint`) fails on an import between
// two folders that is not declared here, on a declared one no file uses any more, and on a
// docs/ARCHITECTURE.md whose folder table is not the one this file renders.
//
//   node scripts/folder-graph.mjs           prints the table
//   node scripts/folder-graph.mjs --write   rewrites the table in docs/ARCHITECTURE.md
//
// Tests (`*.test.ts`) and the test-only folders are outside the rule; files directly in service/
// (service.ts, open-service.ts, server.ts, host.ts, …) assemble the parts and may import any.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders only tests use: their imports are not part of the graph. */
export const TEST_FOLDERS = ['testing', 'hostile'];

/**
 * Each folder, what it holds, and the folders it may import, listed from the web layer down.
 * Adding an edge is a design decision: say why in the commit, and keep the graph free of cycles.
 */
export const FOLDERS = {
  routes: {
    what: 'one module per resource: parse the request, call the domain, present the answer',
    imports: [
      'access',
      'accounts',
      'apps',
      'audit',
      'auth',
      'demo',
      'driver',
      'environment',
      'http',
      'jobs',
      'logs',
      'objects',
      'orgs',
      'policies',
      'records',
      'scripting',
      'views',
    ],
  },
  http: {
    what: 'request → plain values, RequestContext, cookies, requireX helpers, faults',
    imports: ['access', 'apps', 'audit', 'auth', 'objects', 'orgs'],
  },
  environment: {
    what: 'configuration as files: manifests, export, import (one transaction), lock, deployments',
    imports: ['access', 'apps', 'auth', 'crypto', 'db', 'objects', 'orgs', 'records', 'views'],
  },
  policies: {
    what: 'request policies (issue 40): the org’s table of @policy and configured policies (stored here), matching, Deny/Allow/Redirect/Script actions, rate limits',
    imports: ['access', 'db', 'environment', 'orgs', 'records', 'scripting'],
  },
  triggers: {
    what: 'triggers (issue 41): the org’s trigger table, before and after runs around a caller’s write (the records service’s hooks), depth',
    imports: ['access', 'apps', 'logs', 'objects', 'orgs', 'records', 'scripting'],
  },
  jobs: {
    what: 'jobs (issue 41): the org’s job table, the scheduler (one run per slot across processes), runs by hand',
    imports: ['access', 'apps', 'db', 'logs', 'objects', 'orgs', 'records', 'scripting'],
  },
  scripting: {
    what: 'the script sandbox: worker pool, one QuickJS run, host functions (file map: scripting/README.md)',
    imports: [
      'access',
      'accounts',
      'apps',
      'audit',
      'auth',
      'driver',
      'environment',
      'logs',
      'objects',
      'orgs',
      'records',
      'workers',
    ],
  },
  driver: {
    what: 'the driver API (cursor, readOne, insert/update/patch/delete One and Many, bulk) over the records service',
    imports: ['access', 'objects', 'orgs', 'records'],
  },
  views: {
    what: 'stored queries: compile (variables, limits) and run as the view’s principal',
    imports: ['access', 'db', 'objects', 'orgs', 'records'],
  },
  records: {
    what: 'the records service: list, read, count, create, patch, delete and loads for every caller; record rules, the write path and its hooks',
    imports: ['access', 'accounts', 'audit', 'db', 'objects', 'orgs', 'query'],
  },
  logs: {
    what: 'a log entry per script run (bounded), GET /logs and the tail, retention',
    imports: ['db', 'objects', 'orgs', 'query'],
  },
  audit: {
    what: 'the audit trail: who did what administrative action or record write, from where',
    imports: ['access', 'objects', 'orgs'],
  },
  auth: {
    what: 'who is calling: sessions, tokens, signatures (answers an Authentication)',
    imports: ['access', 'accounts', 'apps', 'audit', 'crypto', 'db', 'objects', 'orgs'],
  },
  apps: {
    what: 'API client applications and their key pairs',
    imports: ['access', 'crypto', 'db', 'objects', 'orgs'],
  },
  accounts: {
    what: 'accounts, credentials, passwords, the outbox',
    imports: ['access', 'crypto', 'db', 'objects', 'orgs'],
  },
  access: {
    what: 'what the caller may do: roles, ACL levels (and the read condition as a row filter), scope guard, object rules',
    imports: ['db', 'objects', 'orgs', 'query'],
  },
  demo: {
    what: 'demo data: generation in worker threads, the seeder, the console’s seeding jobs',
    imports: ['db', 'objects', 'orgs', 'workers'],
  },
  objects: {
    what: 'definitions, validation, the object store (tables, key columns, indexes), presentation, PATCH operations',
    imports: ['db', 'query'],
  },
  orgs: {
    what: 'orgs and their settings',
    imports: ['db'],
  },
  query: {
    what: 'the query compiler: list queries and row filters (the access model’s) → SQL, every value bound',
    imports: [],
  },
  db: {
    what: 'the connection, migrations, statement caches, checkpoints in a worker, the parallel sorter',
    imports: ['workers'],
  },
  crypto: {
    what: 'ciphers, keys, randomness',
    imports: [],
  },
  workers: {
    what: 'where a worker thread’s file is, built or from source',
    imports: [],
  },
};

const START = '<!-- folder-graph: generated by scripts/folder-graph.mjs from its FOLDERS; edit there -->';
const END = '<!-- folder-graph: end -->';
const DOC = join(fileURLToPath(new URL('..', import.meta.url)), 'docs', 'ARCHITECTURE.md');

/** The table of docs/ARCHITECTURE.md, between its markers. */
export function renderTable() {
  const rows = Object.entries(FOLDERS).map(([name, f]) => {
    const imports = f.imports.length === 0 ? '—' : f.imports.map((i) => `\`${i}\``).join(', ');
    return `| \`${name}/\` | ${f.what} | ${imports} |`;
  });
  return [START, '', '| folder | what it holds | may import |', '|---|---|---|', ...rows, '', END].join('\n');
}

/** The doc with its table replaced by the rendered one (the markers must be there). */
export function withTable(doc) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`${DOC} has no folder-graph markers.`);
  return doc.slice(0, start) + renderTable() + doc.slice(end + END.length);
}

/** Whether docs/ARCHITECTURE.md shows the table FOLDERS renders. */
export function docIsCurrent() {
  const doc = readFileSync(DOC, 'utf8');
  return withTable(doc) === doc;
}

/**
 * Problems of an actual folder graph (folder → Map of imported folder → the file edges behind it)
 * against the declared one: undeclared folders and edges, and declared edges nothing uses.
 */
export function graphProblems(actual) {
  const problems = [];
  for (const [from, edges] of actual) {
    const declared = FOLDERS[from];
    if (!declared) {
      problems.push(`service folder ${from}/ is not declared in scripts/folder-graph.mjs`);
      continue;
    }
    for (const [to, files] of edges) {
      if (declared.imports.includes(to)) continue;
      problems.push(
        `${from} → ${to} is not an allowed import (scripts/folder-graph.mjs):\n    ${files.join('\n    ')}`,
      );
    }
  }
  for (const [from, declared] of Object.entries(FOLDERS)) {
    for (const to of declared.imports) {
      if (!actual.get(from)?.has(to)) problems.push(`${from} → ${to} is declared but no file imports it: remove it`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) {
    writeFileSync(DOC, withTable(readFileSync(DOC, 'utf8')));
    console.log(`Wrote the folder table of ${DOC}.`);
  } else console.log(renderTable());
}
