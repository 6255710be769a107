import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Workspace packages resolve to their TypeScript sources, so tests need no build. */
export const workspaceAlias = {
  '@teltlk/protocol': source('./packages/protocol/src/index.ts'),
  '@teltlk/client': source('./packages/client/src/index.ts'),
  '@teltlk/im-sdk': source('./packages/im-sdk/src/index.ts'),
  '@teltlk/test-kit': source('./packages/test-kit/src/index.ts'),
  '@teltlk/pi-sdk/hosted': source('./packages/pi-sdk/src/hosted.ts'),
  '@teltlk/pi-sdk/contract': source('./packages/pi-sdk/src/contract.ts'),
  '@teltlk/pi-sdk': source('./packages/pi-sdk/src/index.ts'),
  '@teltlk/pi-sandbox': source('./packages/pi-sandbox/src/index.ts'),
  '@teltlk/server/tools': source('./apps/server/src/tools.ts'),
  '@teltlk/server/testing': source('./apps/server/src/test/testing.ts'),
};

export default defineConfig({
  resolve: { alias: workspaceAlias },
  test: {
    // One file per core and one more: most server files spend their time waiting on
    // PostgreSQL, sockets and child processes, not on the CPU, so one worker fewer than
    // the cores (Vitest's default) leaves a 2-core machine running its files one by one.
    // Each file has its own PostgreSQL schema, SQLite file and ports, and what it keeps in
    // Redis is keyed by random ids.
    maxWorkers: availableParallelism() + 1,
    // How long `expect.poll` waits for what it checks, set once here rather than on each
    // poll: seconds, not Vitest's default one, since the files share the cores and a poll
    // waits on sockets, child processes and the database.
    expect: { poll: { timeout: 5_000 } },
    projects: [
      {
        extends: true,
        test: { name: 'protocol', include: ['packages/protocol/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'pi',
          include: ['packages/pi-sdk/src/**/*.test.ts', 'packages/pi-sandbox/src/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'client', include: ['packages/client/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'im-sdk', include: ['packages/im-sdk/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: { name: 'scripts', include: ['scripts/**/*.test.mjs'] },
      },
      {
        extends: true,
        test: {
          name: 'bench',
          include: ['bench/src/**/*.test.ts'],
          // The seeding's tests boot the server in-process, as the server's own tests do.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: { name: 'test-kit', include: ['packages/test-kit/src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/*.test.ts'],
          // i18n, icons and the router for components rendered outside the app, once.
          setupFiles: ['apps/web/src/testing/setup.tsx'],
        },
      },
    ],
  },
});
