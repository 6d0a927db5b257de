import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'src-renderer/**/*.test.ts'],
    environment: 'node',
    // Each test file gets its own temporary database; files run in parallel workers.
    pool: 'forks',
    testTimeout: 30_000,
  },
});
