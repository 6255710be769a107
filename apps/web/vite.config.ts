import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { appFilesPlugin } from './app-files.ts';
import { precompressPlugin } from './precompress.ts';
import { preloadListsPlugin } from './preload-lists.ts';
import { serviceWorkerPlugin } from './service-worker-plugin.ts';
import { signInPagePlugin } from './sign-in-plugin.ts';
import { landingPlugin } from './landing/landing-plugin.ts';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
// The API server the dev server forwards to; `npm run dev` at the root starts it on 3000.
const server = process.env.TELTLK_API ?? 'http://localhost:3000';

export default defineConfig({
  // Relative asset paths, so the built app works wherever the server mounts it.
  base: './',
  plugins: [
    react(),
    signInPagePlugin(),
    appFilesPlugin(),
    preloadListsPlugin(),
    serviceWorkerPlugin(),
    landingPlugin(),
    precompressPlugin(),
  ],
  resolve: {
    alias: {
      '@teltlk/protocol': source('../../packages/protocol/src/index.ts'),
      '@teltlk/client': source('../../packages/client/src/index.ts'),
      '@teltlk/im-sdk': source('../../packages/im-sdk/src/index.ts'),
      '@teltlk/pi-sdk': source('../../packages/pi-sdk/src/index.ts'),
    },
    // Hoisted libraries (antd-mobile, react-router, ...) would otherwise resolve the
    // React 18 copy in the root node_modules and load two Reacts.
    dedupe: ['react', 'react-dom'],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      // The protocol's schemas are built by calls (`z.object(...)`) that have no effect
      // besides their value: a module that only needs a constant or a helper from the
      // protocol must not pull zod into its chunk for schemas it never uses.
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  server: {
    proxy: {
      '/api': server,
      '/files': server,
      '/dev': server,
      '/docs': server,
      '/openapi.json': server,
      '/healthz': server,
      '/ws': { target: server, ws: true },
    },
  },
});
