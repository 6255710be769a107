import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { landingPages } from './render';

const CSS = fileURLToPath(new URL('./landing.css', import.meta.url));

/**
 * The landing site (`/home`), prerendered at build into plain HTML pages beside the app,
 * in the three languages, with its own small stylesheet and none of the app's scripts.
 */
export function landingPlugin(): Plugin {
  return {
    name: 'teltlk-landing',
    apply: 'build',
    generateBundle() {
      for (const page of landingPages()) {
        this.emitFile({
          type: 'asset',
          fileName: `${page.path.replace(/^\//, '')}index.html`,
          source: page.html,
        });
      }
      this.emitFile({ type: 'asset', fileName: 'landing.css', source: readFileSync(CSS, 'utf8') });
    },
  };
}
