import type { Plugin } from 'vite';

/** The meta element that lists the app's files (what `import('./main')` will fetch). */
export const APP_FILES_META = 'teltlk-app-files';

interface BundleChunk {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/**
 * Names, in index.html, the files the app's entry (`src/app/main.tsx`) and its static
 * imports are built into, so the sign-in page shown before the app can ask the browser to
 * fetch them while the visitor types (guest.ts), without running any of them.
 */
export function appFilesPlugin(): Plugin {
  return {
    name: 'teltlk-app-files',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter(
          (item): item is BundleChunk & typeof item => item.type === 'chunk',
        );
        const entry = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/src/app/main.tsx'));
        if (!entry) throw new Error('app-files: the chunk of src/app/main.tsx is missing');
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const files = new Set<string>();
        const visit = (chunk: BundleChunk) => {
          if (files.has(chunk.fileName)) return;
          files.add(chunk.fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
          for (const name of chunk.imports) {
            const imported = byName.get(name);
            if (imported) visit(imported);
          }
        };
        visit(entry);
        return [
          {
            tag: 'meta',
            attrs: {
              name: APP_FILES_META,
              content: [...files].map((file) => `./${file}`).join(' '),
            },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}
