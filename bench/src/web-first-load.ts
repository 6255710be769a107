import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** PERFORMANCE.md: gzipped JS before the chat list is interactive. */
export const FIRST_LOAD_BUDGET_BYTES = 250 * 1024;

export interface FirstLoad {
  files: { name: string; gzipBytes: number }[];
  gzipBytes: number;
}

/**
 * The scripts a browser fetches before the app can run: the entry module of
 * index.html, every modulepreload link, the app the entry imports once the page has
 * painted, and what those import statically (lazy routes are dynamic imports of the
 * app's chunks and are not counted; they load on demand).
 */
export async function measureFirstLoad(distDir: string): Promise<FirstLoad> {
  const html = await readFile(join(distDir, 'index.html'), 'utf8');
  // The app is built with a relative base, so its links read "./assets/…".
  const entries = [...html.matchAll(/(?:src|href)="(?:\.?\/)?(assets\/[^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  // An empty list would report a perfect score for a page that cannot run.
  if (entries.length === 0) throw new Error('index.html names no script under assets/');
  const queue = [...entries];
  const seen = new Set<string>();
  const files: FirstLoad['files'] = [];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const code = await readFile(join(distDir, name));
    files.push({ name, gzipBytes: gzipSync(code, { level: 9 }).length });
    const text = code.toString('utf8');
    // Static imports between chunks look like: import{a as b}from"./chunk-x.js"
    for (const match of text.matchAll(
      /(?:^|[;}\s])import\s*(?:[^"'()]*?from\s*)?["']\.\/([^"']+\.js)["']/g,
    )) {
      queue.push(`assets/${match[1]!}`);
    }
    // The entry starts the app with import(`./main-x.js`) after the first paint.
    if (entries.includes(name)) {
      for (const match of text.matchAll(/import\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)) {
        queue.push(`assets/${match[1]!}`);
      }
    }
  }
  return { files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
}
