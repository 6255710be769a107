import type { StoredCodePurpose } from '@teltlk/protocol';
import type { Insertable } from 'kysely';
import type {
  CodeRow,
  Db,
  SessionRow,
  SessionsTable,
  VerificationCodesTable,
} from '../../db/schema.js';

export class SessionRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): SessionRepo {
    return new SessionRepo(db);
  }

  async insert(row: Insertable<SessionsTable>): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  findByTokenHash(tokenHash: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async touch(id: string, now: number): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
  }

  listLive(userId: string, now: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** Revokes one live session of the user; false when there is none with that id. */
  async revoke(userId: string, id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async revokeAllOfUser(userId: string, now: number, exceptId?: string): Promise<void> {
    let query = this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptId) query = query.where('id', '!=', exceptId);
    await query.execute();
  }

  /** When each of these sessions ends or was revoked; ids no longer stored are left out. */
  findEnds(
    ids: readonly string[],
  ): Promise<Pick<SessionRow, 'id' | 'expires_at' | 'revoked_at'>[]> {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'expires_at', 'revoked_at'])
      .where('id', 'in', ids)
      .execute();
  }

  findLive(
    id: string,
    now: number,
  ): Promise<
    | Pick<
        SessionRow,
        'id' | 'user_id' | 'created_at' | 'proven_at' | 'proof' | 'held_until' | 'user_agent' | 'ip'
      >
    | undefined
  > {
    return this.db
      .selectFrom('sessions')
      .select([
        'id',
        'user_id',
        'created_at',
        'proven_at',
        'proof',
        'held_until',
        'user_agent',
        'ip',
      ])
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Records a proof made on a live session; `liftHold` ends a new device's hold too. */
  async prove(
    id: string,
    proof: NonNullable<SessionRow['proof']>,
    now: number,
    liftHold: boolean,
  ): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ proven_at: now, proof, ...(liftHold ? { held_until: null } : {}) })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async deleteEndedBefore(cutoff: number): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
      .execute();
  }
}

export class CodeRepo {
  constructor(private readonly db: Db) {}

  in(db: Db): CodeRepo {
    return new CodeRepo(db);
  }

  async lastSentAt(destination: string, purpose: StoredCodePurpose): Promise<number | null> {
    const row = await this.db
      .selectFrom('verification_codes')
      .select((eb) => eb.fn.max('created_at').as('last'))
      .where('destination', '=', destination)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    return row?.last ?? null;
  }

  async countForDestinationSince(destination: string, since: number): Promise<number> {
    const row = await this.db
      .selectFrom('verification_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('destination', '=', destination)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Retires every other open code for this destination and purpose: only the newest one works. */
  async supersede(
    keepId: string,
    destination: string,
    purpose: StoredCodePurpose,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('verification_codes')
      .set({ consumed_at: now })
      .where('destination', '=', destination)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .where('id', '!=', keepId)
      .execute();
  }

  async insert(row: Insertable<VerificationCodesTable>): Promise<void> {
    await this.db.insertInto('verification_codes').values(row).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('verification_codes').where('id', '=', id).execute();
  }

  findOpen(destination: string, purpose: StoredCodePurpose): Promise<CodeRow | undefined> {
    return this.db
      .selectFrom('verification_codes')
      .selectAll()
      .where('destination', '=', destination)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /**
   * Counts one attempt at a code while it is open, unexpired and under `maxAttempts`, in
   * one statement; returns the attempts so far, or undefined when the code may not be tried.
   */
  async reserveAttempt(id: string, now: number, maxAttempts: number): Promise<number | undefined> {
    const row = await this.db
      .updateTable('verification_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('attempts', '<', maxAttempts)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('attempts')
      .executeTakeFirst();
    return row?.attempts;
  }

  /** Marks an open, unexpired code used (optionally attaching a ticket); false if someone was first. */
  async consume(
    id: string,
    now: number,
    ticket?: { hash: string; expiresAt: number },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('verification_codes')
      .set({
        consumed_at: now,
        ticket_hash: ticket?.hash ?? null,
        ticket_expires_at: ticket?.expiresAt ?? null,
      })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Whether a registration ticket would work now. */
  /** Where an open registration ticket's code was sent, or undefined when it is not open. */
  openTicket(
    ticketHash: string,
    now: number,
  ): Promise<Pick<CodeRow, 'channel' | 'destination'> | undefined> {
    return this.db
      .selectFrom('verification_codes')
      .select(['channel', 'destination'])
      .where('ticket_hash', '=', ticketHash)
      .where('ticket_expires_at', '>', now)
      .where('purpose', '=', 'register')
      .executeTakeFirst();
  }

  /** Uses a registration ticket up; returns where its code was sent, or undefined if it is not valid. */
  takeTicket(
    ticketHash: string,
    now: number,
  ): Promise<Pick<CodeRow, 'channel' | 'destination'> | undefined> {
    return this.db
      .updateTable('verification_codes')
      .set({ ticket_hash: null })
      .where('ticket_hash', '=', ticketHash)
      .where('ticket_expires_at', '>', now)
      .where('purpose', '=', 'register')
      .returning(['channel', 'destination'])
      .executeTakeFirst();
  }

  async deleteCreatedBefore(cutoff: number): Promise<void> {
    await this.db.deleteFrom('verification_codes').where('created_at', '<', cutoff).execute();
  }
}
