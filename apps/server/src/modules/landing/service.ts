import type { CooperationForm } from '@teltlk/protocol';
import type { Selectable } from 'kysely';
import type { CooperationRequestsTable, Db } from '../../db/schema.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { NotifyService } from '../notify/service.js';

/** The landing site's partnership requests: kept, and reported to the operator. */
export class LandingService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      notify: NotifyService;
      /** Where partnership requests are reported; null: the log only. */
      operatorEmail: string | null;
    },
  ) {}

  /** Keeps a partnership request sent through the form from `ip`, and tells the operator. */
  async requestCooperation(body: CooperationForm, ip: string): Promise<void> {
    const { db, clock, notify, operatorEmail } = this.deps;
    await db
      .insertInto('cooperation_requests')
      .values({
        id: newId(),
        name: body.name,
        organisation: body.organisation,
        email: body.email,
        kind: body.kind,
        message: body.message,
        language: body.lang,
        ip,
        created_at: clock.now(),
      })
      .execute();
    await notify.notifyOperator(operatorEmail, {
      subject: `Teltlk partnership request (${body.kind}) from ${body.name}`,
      text: [
        `Name: ${body.name}`,
        `Organisation: ${body.organisation || '-'}`,
        `Email: ${body.email}`,
        `Kind: ${body.kind}`,
        '',
        body.message,
      ].join('\n'),
    });
  }

  /** The partnership requests of the last `days` days, newest first. */
  cooperationRequests(days: number): Promise<Selectable<CooperationRequestsTable>[]> {
    const { db, clock } = this.deps;
    return db
      .selectFrom('cooperation_requests')
      .selectAll()
      .where('created_at', '>=', clock.now() - days * DAY)
      .orderBy('created_at', 'desc')
      .execute();
  }
}
