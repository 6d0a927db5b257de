import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The service the dev server forwards API calls to (the console is same-origin in production). */
const SERVICE_ORIGIN = 'http://127.0.0.1:7788';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
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
});
