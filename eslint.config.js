import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import path from 'node:path';

/** Layering by runtime (convention 1): each folder may import only what its runtime has. */
const noImportsFrom = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

/*
 * Import boundaries inside src-main/service. ESLint keeps one `no-restricted-imports` per file (a
 * later block replaces an earlier one), so each block below lists every group that applies to it.
 * Relative specifiers are matched by regex: `../http/context.js`, `../../cli/args.js`, …
 */
const NOT_ELECTRON = [
  { group: ['electron', '**/src-renderer/**'], message: 'The service runs in plain Node: no Electron imports.' },
];
const NOT_HOSTS = [
  {
    regex: String.raw`^\.{1,2}/(.*/)?(cli|shell|bench)(/|\.js$)`,
    message: 'The service never imports its hosts (cli, shell, bench); they import service/host.ts.',
  },
];
const NOT_TESTING = [{ regex: String.raw`^\.{1,2}/(.*/)?testing/`, message: 'Only tests import service/testing/.' }];
const NOT_WEB = [
  {
    regex: String.raw`^\.{1,2}/(.*/)?((http|routes)/|(server|host)\.js$)`,
    message: 'Domain code does not import the web layer: http/ passes it plain values (see docs/ARCHITECTURE.md).',
  },
  {
    group: ['fastify', '@fastify/*', 'light-my-request'],
    message: 'Domain code does not import the web framework: http/ passes it plain values.',
  },
];
const serviceImportRules = (groups) => ({ 'no-restricted-imports': ['error', { patterns: groups.flat() }] });
/** Tests and test support: they may use the harness in service/testing/. */
const SERVICE_TEST_FILES = [
  'src-main/service/**/*.test.ts',
  'src-main/service/testing/**',
  'src-main/service/hostile/**',
];
/** The web layer and the files that assemble or host it (worker.ts is the shell's host thread). */
const SERVICE_WEB_FILES = [
  'src-main/service/http/**',
  'src-main/service/routes/**',
  'src-main/service/server.ts',
  'src-main/service/host.ts',
  'src-main/service/worker.ts',
];

/**
 * A record is written through the records service (records/), or as a named system write
 * (objects/system-writes.ts): never by calling the store elsewhere (docs/ARCHITECTURE.md#system-writes).
 */
const NO_STORE_WRITES = {
  selector: "CallExpression[callee.object.property.name='store'][callee.property.name=/^(insert|update|delete)$/]",
  message: 'Write records through the records service (records/) or objects/system-writes.ts, not the store.',
};

/** SQL text is built only by the query compiler and the repositories (convention 4). */
const NO_SQL_TEMPLATES = {
  selector: 'TemplateLiteral[quasis.0.value.raw=/^\\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER)\\b/i]',
  message: 'Build SQL only in the query compiler or a repository (src-main/service/{query,db,objects,...}).',
};
const noSqlTemplates = { 'no-restricted-syntax': ['error', NO_SQL_TEMPLATES] };

/**
 * Console features never import each other (issue 12 §3): `src-renderer/features/X` may import
 * components/, api/, routing/, styles/ and src-shared, never `features/Y`. The import is resolved
 * against the importing file, so `../Y/…`, `../../features/Y/…` and deeper spellings are all caught;
 * what two features share moves to components/.
 */
const featureOf = (file) => /\/src-renderer\/features\/([^/]+)\//.exec(file.replaceAll('\\', '/'))?.[1];
const featureBoundaries = {
  rules: {
    'no-cross-feature-imports': {
      meta: {
        type: 'problem',
        messages: {
          crossFeature:
            'features/{{from}} must not import features/{{to}}: move the shared piece to src-renderer/components/.',
        },
        schema: [],
      },
      create(context) {
        const from = featureOf(context.filename);
        if (from === undefined) return {};
        const check = (node) => {
          const spec = node.source?.value;
          if (typeof spec !== 'string' || !spec.startsWith('.')) return;
          const to = featureOf(path.resolve(path.dirname(context.filename), spec) + '/');
          if (to !== undefined && to !== from) context.report({ node, messageId: 'crossFeature', data: { from, to } });
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
  },
};

export default defineConfig([
  { ignores: ['node_modules/', 'dist/', '.electron-native/', 'test-results/', 'playwright-report/', 'e2e/artifacts/'] },
  // Scripts of the original kept as written (issue 40's corpus): not this project's code.
  { ignores: ['src-main/service/scripting/corpus/scripts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: noImportsFrom(
      [
        'node:*',
        'fs',
        'path',
        'crypto',
        'electron',
        'react',
        'react-dom',
        '**/src-main/**',
        '**/src-renderer/**',
        'better-sqlite3',
        'fastify',
      ],
      'src-shared is pure TypeScript: no Node, DOM, Electron or other-layer imports.',
    ),
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    ignores: ['src-renderer/vite.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...noImportsFrom(
        ['node:*', 'electron', '**/src-main/**', 'better-sqlite3', 'fastify'],
        'The renderer talks to the service over HTTP only.',
      ),
    },
  },
  // Inside the service, dependencies point one way (docs/ARCHITECTURE.md): the service never
  // imports its hosts (cli, shell, bench) or test helpers, and the domain never sees the web layer.
  {
    files: ['src-renderer/features/**/*.{ts,tsx}'],
    plugins: { 'console-features': featureBoundaries },
    rules: { 'console-features/no-cross-feature-imports': 'error' },
  },
  {
    files: ['src-main/service/**/*.ts'],
    rules: serviceImportRules([NOT_ELECTRON, NOT_HOSTS]),
  },
  {
    files: ['src-main/service/**/*.ts'],
    ignores: SERVICE_TEST_FILES,
    rules: serviceImportRules([NOT_ELECTRON, NOT_HOSTS, NOT_TESTING]),
  },
  {
    files: ['src-main/service/**/*.ts'],
    ignores: [...SERVICE_TEST_FILES, ...SERVICE_WEB_FILES],
    rules: serviceImportRules([NOT_ELECTRON, NOT_HOSTS, NOT_TESTING, NOT_WEB]),
  },
  // The connection gateway (desktop connections) runs in plain Node beside the service: it may use
  // src-shared's contracts, never Electron, the renderer, or the service's internals (it talks to
  // every service, the local one included, over HTTP only). Its tests may start services with the
  // test harness.
  {
    files: ['src-main/gateway/**/*.ts'],
    ignores: ['src-main/gateway/**/*.test.ts'],
    rules: noImportsFrom(
      ['electron', '**/src-renderer/**', '**/service/**', '**/shell/**', '**/cli/**', 'better-sqlite3', 'fastify'],
      'The gateway is plain Node: src-shared contracts only, no Electron, renderer or service internals.',
    ),
  },
  {
    files: [
      'src-main/service/routes/**/*.ts',
      'src-main/service/http/**/*.ts',
      'src-shared/**/*.ts',
      'src-renderer/**/*.{ts,tsx}',
    ],
    rules: noSqlTemplates,
  },
  // Store writes only in records/ and objects/ (system-writes.ts), and in insertAccount, the store
  // operation of an account (its record and credentials) that both of them run. (The web layer's
  // files keep the SQL rule above as well: a file's last matching block sets the rule.)
  {
    files: ['src-main/service/**/*.ts'],
    ignores: [
      ...SERVICE_TEST_FILES,
      'src-main/service/records/**',
      'src-main/service/objects/**',
      'src-main/service/accounts/accounts.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', NO_STORE_WRITES] },
  },
  {
    files: ['src-main/service/routes/**/*.ts', 'src-main/service/http/**/*.ts'],
    ignores: SERVICE_TEST_FILES,
    rules: { 'no-restricted-syntax': ['error', NO_SQL_TEMPLATES, NO_STORE_WRITES] },
  },
  prettier,
]);
