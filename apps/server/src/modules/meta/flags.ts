import { APP_VERSION, type VersionResult } from '@teltlk/protocol';
import type { Db } from '../../db/schema.js';
import { SECOND, type Clock } from '../../lib/clock.js';

/** A node reads the flags at most this often: a switch reaches every node within it. */
const CACHE_MS = 5 * SECOND;

/**
 * The operator's switches on a running service (maintenance), kept in the database so
 * every node sees them, and what clients are told about versions: the version this server
 * serves, and the oldest client it still works with.
 */
export class ServerFlags {
  private cached: { at: number; maintenance: string | null } | null = null;

  constructor(
    private readonly deps: { db: Db; clock: Clock; minimumClientVersion: string | null },
  ) {}

  /** The maintenance note, or null when the service is not under maintenance. */
  async maintenance(): Promise<string | null> {
    const now = this.deps.clock.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.maintenance;
    const row = await this.deps.db
      .selectFrom('server_flags')
      .select('value')
      .where('key', '=', 'maintenance')
      .executeTakeFirst();
    this.cached = { at: now, maintenance: row?.value ?? null };
    return this.cached.maintenance;
  }

  /** Puts the service under maintenance (with a note for the log), or ends it (null). */
  async setMaintenance(note: string | null): Promise<void> {
    const { db, clock } = this.deps;
    if (note === null) {
      await db.deleteFrom('server_flags').where('key', '=', 'maintenance').execute();
    } else {
      await db
        .insertInto('server_flags')
        .values({ key: 'maintenance', value: note, updated_at: clock.now() })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({ value: note, updated_at: clock.now() }),
        )
        .execute();
    }
    this.cached = null;
  }

  async version(): Promise<VersionResult> {
    return {
      version: APP_VERSION,
      minimum: this.deps.minimumClientVersion ?? '0.0.0',
      maintenance: (await this.maintenance()) !== null,
    };
  }
}
