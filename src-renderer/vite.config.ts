import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The service the dev server forwards API calls to (the console is same-origin in production). */
const SERVICE_ORIGIN = 'http://127.0.0.1:7788';

export default defineConfig(({ mode }) => ({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
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
