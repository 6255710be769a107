import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS } from './owners.js';

const DOC = fileURLToPath(new URL('../../../../docs/architecture.md', import.meta.url));
const MODULES = fileURLToPath(new URL('../modules', import.meta.url));

/** The lines of the doc's section under a `## ` heading, up to the next one. */
function section(doc: string, heading: string): string[] {
  const lines = doc.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${heading}" section`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The cells of a section's table rows whose first cell is a `code` name (not the header). */
function rows(lines: readonly string[]): string[][] {
  return lines
    .filter((line) => /^\|\s*`/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/^`(.*)`$/, '$1')),
    );
}

/**
 * docs/architecture.md is where a newcomer learns the modules and who owns each table;
 * it stays true only if a change to either fails until the page follows.
 */
describe('the architecture doc', () => {
  const doc = readFileSync(DOC, 'utf8');

  it('lists every server module, once, and nothing else', () => {
    const listed = rows(section(doc, 'Server modules')).map(([name]) => name);
    const modules = readdirSync(MODULES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(listed).toEqual([...new Set(listed)]);
    expect([...listed].sort()).toEqual([...modules].sort());
  });

  it('lists every table with the owner TABLE_OWNERS gives it', () => {
    const listed = rows(section(doc, 'Table owners')).map(([table, owner]) => [table, owner]);
    const tables = listed.map(([table]) => table);
    expect(tables).toEqual([...new Set(tables)]);
    expect(Object.fromEntries(listed)).toEqual(TABLE_OWNERS);
  });
});
