import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The service the dev server forwards API calls to (the console is same-origin in production). */
const SERVICE_ORIGIN = 'http://127.0.0.1:7788';

/** Where the console serves the API renderer (under its base, `/console/`). */
const SCALAR_ASSET = 'api-reference/scalar.js';

/**
 * Ships Scalar's standalone API renderer (`@scalar/api-reference`, one self-contained script) with
 * the console, so the API reference page renders offline: copied as it is into the build, and
 * served by the dev server at the same address. The package's export map does not name the file,
 * so it is found beside the package's entry.
 */
function scalarStandalone(): Plugin {
  const file = join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser/standalone.js');
  return {
    name: 'scalar-standalone',
    configureServer(server) {
      server.middlewares.use(`/console/${SCALAR_ASSET}`, (_request, response) => {
        response.setHeader('Content-Type', 'text/javascript; charset=utf-8');
        response.end(readFileSync(file));
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: SCALAR_ASSET, source: readFileSync(file) });
    },
  };
}

export default defineConfig(({ mode }) => ({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react(), scalarStandalone()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Two pages: the console, and the API reference it frames (also served at /_service/docs).
    rollupOptions: {
      input: {
        console: join(import.meta.dirname, 'index.html'),
        'api-reference': join(import.meta.dirname, 'api-reference.html'),
      },
    },
    // Source maps only for development builds: the service serves this folder to anyone on the
    // machine, and a production map would hand out the console's full source (issue #13, item 17).
    sourcemap: mode === 'development',
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/_service': { target: SERVICE_ORIGIN, changeOrigin: false },
      '/demo': { target: SERVICE_ORIGIN, changeOrigin: false },
      // Any other org: `/<org>/v2/...` (a key starting with ^ is a RegExp for Vite).
      '^/[a-z0-9-]+/v2/': { target: SERVICE_ORIGIN, changeOrigin: false },
    },
  },
}));
