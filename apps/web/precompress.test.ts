import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompress } from './precompress';

describe('precompress', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'teltlk-precompress-'));
    await mkdir(join(dir, 'assets'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes Brotli and gzip copies of text files from a kilobyte up, and only those', async () => {
    const script = `export const text = ${JSON.stringify('hello '.repeat(500))};`;
    const files: Record<string, string | Buffer> = {
      'index.html': `<!doctype html>${'<p>sign in</p>'.repeat(200)}`,
      'assets/index-AbC123.js': script,
      'assets/index-AbC123.css': `.a{color:red}`.repeat(200),
      'manifest.webmanifest': JSON.stringify({ name: 'Teltlk', pad: 'x'.repeat(2000) }),
      'favicon.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0h1"/>'.repeat(80)}</svg>`,
      'assets/tiny-Q1w2E3.js': 'export const a = 1;',
      'icon-192.png': Buffer.alloc(4096, 7),
    };
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);

    const compressed = await precompress(dir);

    expect(compressed.map((file) => file.slice(dir.length + 1))).toEqual([
      'assets/index-AbC123.css',
      'assets/index-AbC123.js',
      'favicon.svg',
      'index.html',
      'manifest.webmanifest',
    ]);
    const br = await readFile(join(dir, 'assets/index-AbC123.js.br'));
    const gz = await readFile(join(dir, 'assets/index-AbC123.js.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(script);
    expect(gunzipSync(gz).toString()).toBe(script);
    expect(br.length).toBeLessThan(gz.length);
    const written = await readdir(join(dir, 'assets'));
    expect(written).not.toContain('tiny-Q1w2E3.js.br');
    expect(await readdir(dir)).not.toContain('icon-192.png.br');
  });
});
