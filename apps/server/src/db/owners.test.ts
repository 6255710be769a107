import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS, type TableName } from './owners.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** Every source file of the server but tests and migrations (which run as they landed). */
function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) {
      return name === 'migrations' || name === 'test' ? [] : sources(path);
    }
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The tables a file names where a query takes a table: in Kysely's builders or in raw SQL. */
function tablesNamedIn(source: string): Set<TableName> {
  const named = new Set<TableName>();
  for (const table of Object.keys(TABLE_OWNERS) as TableName[]) {
    const builder = new RegExp(
      String.raw`(selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|with|mergeInto|sql\.table)\(\s*['"\`]${table}(\s+as\s+\w+)?['"\`]`,
    );
    const raw = new RegExp(String.raw`\b(FROM|JOIN|UPDATE|INTO)\s+${table}\b`);
    if (builder.test(source) || raw.test(source)) named.add(table);
  }
  return named;
}

describe('table owners', () => {
  const files = sources(SRC);

  it('knows the code it reads', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('has only owners naming their tables', () => {
    const trespasses: string[] = [];
    for (const file of files) {
      const path = relative(SRC, file);
      const module = /^modules\/([^/]+)\//.exec(path)?.[1] ?? null;
      for (const table of tablesNamedIn(readFileSync(file, 'utf8'))) {
        if (TABLE_OWNERS[table] !== module) {
          trespasses.push(`${path}: ${table} (owned by ${TABLE_OWNERS[table]})`);
        }
      }
    }
    expect(trespasses, 'modules naming tables they do not own').toEqual([]);
  });
});
