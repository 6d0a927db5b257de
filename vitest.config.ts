import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'src-renderer/**/*.test.ts'],
    environment: 'node',
    // Each test file gets its own temporary database; files run in parallel workers.
    pool: 'forks',
    testTimeout: 30_000,
    // Harness set-up (a migrated database, key pairs, sometimes a second service) takes seconds on a
    // loaded 2-core machine; a hook that times out fails a whole file for no reason of its own.
    hookTimeout: 60_000,
  },
});
