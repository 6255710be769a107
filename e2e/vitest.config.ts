import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser tests drive the built app on a real server. Each file starts its own server and
 * browser; two files at a time keep a 2-core machine busy (a file mostly waits on its
 * pages) without starving either.
 */
export default defineConfig({
  // The shared test kit from its sources, like the other workspaces' tests.
  resolve: {
    alias: {
      '@teltlk/test-kit': fileURLToPath(
        new URL('../packages/test-kit/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    include: ['src/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    // A poll waits on pages that load chunks, process files, translate and push over
    // sockets, while another file's pages share the two cores: seconds, not vitest's
    // default one. The longest wait any test needs (a translation, a photo processed),
    // set here once rather than on each poll.
    expect: { poll: { timeout: 30_000 } },
  },
});
