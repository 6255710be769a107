// Bundles the hosted Pi SDK into the one classic script the sandbox serves as /pi-sdk.js.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

await build({
  entryPoints: [fileURLToPath(new URL('../../pi-sdk/src/hosted-entry.ts', import.meta.url))],
  outfile: fileURLToPath(new URL('../dist/pi-sdk.js', import.meta.url)),
  bundle: true,
  format: 'iife',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
