import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * A migration that landed runs the same forever: it imports Kysely and published packages
 * only, never a module of the app (whose code moves on), so what it ran with is frozen in
 * its own file.
 */
describe('migrations', () => {
  const folder = new URL('.', import.meta.url);
  const files = readdirSync(folder).filter(
    (name) => /^\d{4}-.*\.ts$/.test(name) && !name.endsWith('.test.ts'),
  );

  it.each(files)('%s imports nothing of the app', (name) => {
    const source = readFileSync(new URL(name, folder), 'utf8');
    const imports = [...source.matchAll(/^\s*import[^'"]*['"]([^'"]+)['"]/gm)].map(
      (match) => match[1],
    );
    const ours = imports.filter((from) => from?.startsWith('.') || from?.startsWith('@teltlk/'));
    expect(ours).toEqual([]);
  });
});
