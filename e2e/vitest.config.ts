import { defineConfig } from 'vitest/config';

/** Browser tests drive the built app on a real server; one file at a time keeps 2 cores calm. */
export default defineConfig({
  test: {
    include: ['src/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
