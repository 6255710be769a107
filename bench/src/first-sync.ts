import { call, registerAccounts, signInAgain } from './accounts.js';
import { seed, startTeltlk } from './server-process.js';
import { median } from './stats.js';

/**
 * First sync: a user with `chats` one-to-one chats (synthetic peers and messages made in
 * bulk by the seeding command `populate-chats`) signs in on a new device, which pages through the
 * conversation list (`GET /sync/conversations` from the start) until the last row: the
 * time to it, through HTTP as the app does it. The baseline is the same list read raw, one
 * plain SQL query for the rows with their last messages (`read-chats`), in the same
 * database on the same run.
 */

export interface FirstSyncOptions {
  chats: number;
  /** Messages in each chat. */
  messages: number;
  rounds: number;
}

export const FIRST_SYNC_DEFAULTS: FirstSyncOptions = { chats: 5000, messages: 3, rounds: 3 };

export interface FirstSyncFigures {
  rows: number;
  /** Median time from the first request to the last row, ms. */
  syncMs: number;
  /** Median time of the raw read, ms. */
  rawMs: number;
  pages: number;
}

interface SyncPage {
  conversations: unknown[];
  nextCursor: string | null;
}

/** The whole list as a new device gets it: pages from the start until there is no cursor. */
async function syncAll(baseUrl: string, token: string): Promise<{ rows: number; pages: number }> {
  let rows = 0;
  let pages = 0;
  let cursor: string | null = null;
  do {
    const query: string = `since=0${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page: SyncPage = await call<SyncPage>(baseUrl, 'GET', `/sync/conversations?${query}`, {
      token,
    });
    rows += page.conversations.length;
    pages += 1;
    cursor = page.nextCursor;
  } while (cursor);
  return { rows, pages };
}

export async function benchFirstSync(options: FirstSyncOptions): Promise<FirstSyncFigures> {
  const server = await startTeltlk();
  try {
    const [user] = await registerAccounts(server.baseUrl, 1);
    await seed(server, [
      'populate-chats',
      ...['--user', user!.userId, '--chats', String(options.chats)],
      ...['--messages', String(options.messages)],
    ]);
    const times: number[] = [];
    let result = { rows: 0, pages: 0 };
    for (let round = 0; round < options.rounds; round += 1) {
      // Each round a device that has never synced, with a session of its own.
      const token = await signInAgain(server.baseUrl, user!);
      const started = performance.now();
      result = await syncAll(server.baseUrl, token);
      times.push(performance.now() - started);
    }
    if (result.rows !== options.chats) {
      throw new Error(`the list has ${result.rows} conversations, not ${options.chats}`);
    }
    const raw = JSON.parse(
      await seed(server, [
        'read-chats',
        ...['--user', user!.userId, '--rounds', String(options.rounds)],
      ]),
    ) as { rows: number; ms: number };
    if (raw.rows !== options.chats) throw new Error(`the raw read found ${raw.rows} rows`);
    return { rows: result.rows, syncMs: median(times), rawMs: raw.ms, pages: result.pages };
  } finally {
    await server.stop();
  }
}
