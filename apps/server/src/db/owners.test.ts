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

/**
 * Where a module still names a table of another's: the debts left to pay, each with the
 * way out. A debt paid (the module no longer names the table) must leave this list.
 */
const DEBTS: Record<string, string> = {
  'modules/contacts/repo.ts: users':
    'user cards through a users port (a join the users module hands out)',
  'modules/events/repo.ts: users': 'user cards through a users port',
  'modules/media/repo.ts: users': 'user cards through a users port',
  'modules/media/repo.ts: conversation_members':
    "who may see a message through the messages module's one visibility rule",
  'modules/media/repo.ts: messages':
    "who may see a message through the messages module's one visibility rule",
  'modules/media/repo.ts: message_hides':
    "who may see a message through the messages module's one visibility rule",
  'modules/messages/membership.ts: users': "members' languages and cards through a users port",
  'modules/messages/repo.ts: users': "senders' cards through a users port",
  'modules/messages/repo.ts: translations': "a message's translations through a translation port",
  'modules/push/service.ts: users': "readers' languages and switches through a users port",
  'modules/push/service.ts: sessions': 'live sessions through an auth port',
  'modules/push/service.ts: conversation_members':
    "a conversation's readers through a messages port",
};

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
        if (TABLE_OWNERS[table] === module) continue;
        const key = `${path}: ${table}`;
        if (!Object.hasOwn(DEBTS, key)) trespasses.push(`${key} (owned by ${TABLE_OWNERS[table]})`);
      }
    }
    expect(trespasses, 'modules naming tables they do not own').toEqual([]);
  });

  it('lists no debt that was paid', () => {
    const owed = new Set<string>();
    for (const file of files) {
      const path = relative(SRC, file);
      for (const table of tablesNamedIn(readFileSync(file, 'utf8'))) owed.add(`${path}: ${table}`);
    }
    expect(Object.keys(DEBTS).filter((debt) => !owed.has(debt))).toEqual([]);
  });
});
