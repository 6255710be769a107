import type {
  Channel,
  SecurityAction,
  SecurityActivity,
  SecurityActivityResult,
} from '@teltlk/protocol';
import { after, cursorOf } from '../../db/keyset.js';
import type { Db, SecurityEventsTable } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { PlaceLookup } from '../../lib/ip-country.js';
import { newId } from '../../lib/random.js';
import type { ClientInfo } from '../auth/sessions.js';
import type { EventService, PendingEvent } from '../events/service.js';

/** The spec keeps the first 255 characters of a user agent. */
const USER_AGENT_MAX = 255;
const DETAIL_MAX = 255;

/** One entry of a person's security activity, as a service hands it in. */
export interface ActivityEntry {
  userId: string;
  action: SecurityAction;
  /** The session it was done on; null when done without one (a reset by code, an undo link). */
  sessionId: string | null;
  client: ClientInfo;
  channel?: Channel | null;
  detail?: string | null;
}

/**
 * The security activity list (owner of `security_events`): every sensitive action and
 * sign-in, with the device and place it came from. Each entry is also a user event, so
 * the person's other devices say so at once (and catch up on it when they come back).
 */
export class SecurityActivityLog {
  constructor(
    private readonly deps: { db: Db; clock: Clock; places: PlaceLookup; events: EventService },
  ) {}

  /**
   * Writes an entry within the caller's transaction; publish the result once it commits.
   * The place of the address is looked up before (a table in memory, no I/O once loaded).
   */
  async record(db: Db, entry: ActivityEntry): Promise<PendingEvent> {
    const row = await this.write(db, entry);
    return this.deps.events.append(db, entry.userId, {
      type: 'security',
      activity: present(row),
    });
  }

  /**
   * Writes an entry without telling the other devices: a sign-in, which the list shows and
   * the session list names, and which would otherwise ring every device at each sign-in.
   */
  async note(db: Db, entry: ActivityEntry): Promise<void> {
    await this.write(db, entry);
  }

  private async write(db: Db, entry: ActivityEntry): Promise<SecurityEventsTable> {
    const row: SecurityEventsTable = {
      id: newId(),
      user_id: entry.userId,
      action: entry.action,
      session_id: entry.sessionId,
      user_agent: entry.client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ip: entry.client.ip,
      country: await this.deps.places.countryOf(entry.client.ip).catch(() => null),
      channel: entry.channel ?? null,
      detail: entry.detail?.slice(0, DETAIL_MAX) ?? null,
      created_at: this.deps.clock.now(),
    };
    await db.insertInto('security_events').values(row).execute();
    return row;
  }

  /** Writes an entry in a transaction of its own and tells the person's devices. */
  async recordNow(entry: ActivityEntry): Promise<void> {
    const pending = await this.deps.db.transaction().execute((trx) => this.record(trx, entry));
    this.publish([pending]);
  }

  publish(pending: readonly PendingEvent[]): void {
    this.deps.events.publish(pending);
  }

  async list(
    userId: string,
    query: { cursor?: string | undefined; limit: number },
  ): Promise<SecurityActivityResult> {
    let q = this.deps.db
      .selectFrom('security_events')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1);
    const { cursor } = query;
    if (cursor) q = q.where((eb) => after(eb, cursor, 'created_at', 'id'));
    const rows = await q.execute();
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(present),
      next: rows.length > query.limit && last ? cursorOf(last.created_at, last.id) : null,
    };
  }
}

function present(row: SecurityEventsTable): SecurityActivity {
  return {
    id: row.id,
    action: row.action as SecurityAction,
    at: Number(row.created_at),
    sessionId: row.session_id,
    userAgent: row.user_agent,
    ip: row.ip,
    country: row.country,
    channel: row.channel,
    detail: row.detail,
  };
}
