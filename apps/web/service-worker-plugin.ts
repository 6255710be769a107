import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const SOURCE = fileURLToPath(new URL('./src/sw/service-worker.ts', import.meta.url));
const FILE = 'sw.js';

/** Static files of the app shell besides the build's own, kept for offline use. */
const SHELL = ['./', './manifest.webmanifest', './logo.svg', './icon-192.png'];
/**
 * Modules whose chunks (with what they import) open the app offline, beside the page's
 * own entry: the app, the sign-in page, and the signed-in layout with the chat list.
 */
const OFFLINE_MODULES = [
  '/src/app/main.tsx',
  '/src/features/auth/login-page.tsx',
  '/src/app/signed-in.tsx',
  '/src/features/home/home-page.tsx',
];

/**
 * Builds the service worker (src/sw/service-worker.ts) into /sw.js beside the app, with
 * the list of files to keep for offline use: the page, the entry's scripts and styles
 * and the sign-in page's, and the shell's icons. Its cache is named after a hash of that
 * list, so a new build is a new worker (which the app offers to switch to).
 */
export function serviceWorkerPlugin(): Plugin {
  return {
    name: 'teltlk-service-worker',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'chunk', id: SOURCE, fileName: FILE });
    },
    // After Vite's own: it drops the chunks that held only CSS (a stylesheet imported by
    // itself, as the layouts import the list's), which the list must not name.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const worker = bundle[FILE];
        if (!worker || worker.type !== 'chunk') throw new Error('service worker chunk missing');
        if (worker.imports.length > 0) throw new Error('the service worker must import nothing');
        const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const kept = new Set<string>();
        const visit = (name: string) => {
          const chunk = byName.get(name);
          if (!chunk || kept.has(name)) return;
          kept.add(name);
          for (const css of chunk.viteMetadata?.importedCss ?? []) kept.add(css);
          chunk.imports.forEach(visit);
        };
        for (const entry of chunks)
          if (entry.isEntry && entry.fileName !== FILE) visit(entry.fileName);
        for (const module of OFFLINE_MODULES) {
          const chunk = chunks.find((item) => item.facadeModuleId?.endsWith(module));
          if (!chunk) throw new Error(`service worker: no chunk for ${module}`);
          visit(chunk.fileName);
        }
        const gone = [...kept].filter((name) => !(name in bundle));
        if (gone.length > 0)
          throw new Error(`service worker: not in the build: ${gone.join(', ')}`);
        const files = [...SHELL, ...[...kept].sort().map((name) => `./${name}`)];
        const build = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
        worker.code = worker.code
          .replaceAll('__SW_PRECACHE__', JSON.stringify(files))
          .replaceAll('__SW_BUILD__', JSON.stringify(build));
      },
    },
  };
}
