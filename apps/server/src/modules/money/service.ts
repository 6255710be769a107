import { randomInt } from 'node:crypto';
import {
  ENVELOPE_TTL_HOURS,
  HELD_TRANSFER_MAX_PI,
  groupIdOf,
  peerOf,
  toUnits,
  type EnvelopeView,
  type Message,
  type envelopeBody,
  type transferBody,
} from '@teltlk/protocol';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/database.js';
import type { Db, EnvelopesTable } from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import { HOUR, type Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { AccountRef, Ledger } from '../ledger/ledger.js';
import type { MessageService } from '../messages/service.js';
import { stepUpRequired, type StepUpRule } from '../security/step-up.js';
import type { WalletService } from '../wallet/service.js';

type TransferInput = z.output<typeof transferBody>;
type EnvelopeInput = z.output<typeof envelopeBody>;

const available = (user: string): AccountRef => ({ user, purpose: 'available', currency: 'PI' });
const HELD_TRANSFER_MAX = toUnits(HELD_TRANSFER_MAX_PI, 'PI') ?? 0;
/** Red envelopes sent and not yet opened: the app holds them in between. */
const inEnvelopes: AccountRef = { app: 'envelopes', currency: 'PI' };

/**
 * Money in chats. A transfer moves from one person to the other of a one-to-one chat in
 * the same database transaction as its message; a red envelope leaves the sender with its
 * message, and each share moves to the member who opens it, once per member, never more
 * shares than were cut; what nobody opened goes back to the sender after 24 hours.
 * Every movement is a ledger transaction keyed by what it is, so a retry moves nothing
 * twice; a message's client id makes a resent request answer the first one.
 */
export class MoneyService {
  constructor(
    private readonly deps: {
      db: Db;
      ledger: Ledger;
      wallets: WalletService;
      messages: MessageService;
      clock: Clock;
      stepUp: StepUpRule;
    },
  ) {}

  /** A new device on hold sends small sums only, until it steps up. */
  private async refuseLargeWhileHeld(who: AuthInfo, units: number): Promise<void> {
    if (units > HELD_TRANSFER_MAX && (await this.deps.stepUp.held(who))) {
      throw stepUpRequired('hold');
    }
  }

  async transfer(who: AuthInfo, body: TransferInput): Promise<Message> {
    const { wallets } = this.deps;
    if (groupIdOf(body.conversationId) !== null) throw new AppError('TRANSFER_SINGLE_ONLY');
    const peerId = peerOf(body.conversationId, who.userId);
    if (peerId === null || peerId === who.userId) throw new AppError('CONVERSATION_NOT_FOUND');
    await this.refuseLargeWhileHeld(who, this.units(body.amount));
    await wallets.verify(who, body.password);
    return this.transferChecked(who, body, peerId);
  }

  /**
   * A transfer whose payment password was checked: the money and its message, together.
   * The message is its record (id, amount, note, recipient); the ledger transaction names
   * the transfer id.
   */
  async transferChecked(who: AuthInfo, body: TransferInput, peerId: string): Promise<Message> {
    const { ledger, messages } = this.deps;
    const units = this.units(body.amount);
    return messages.transact(async (trx, after) => {
      const id = newId();
      const { message, replayed } = await messages.appendAs(
        trx,
        {
          userId: who.userId,
          conversationId: body.conversationId,
          clientMsgId: body.clientMsgId,
          content: {
            kind: 'transfer',
            transferId: id,
            currency: 'PI',
            amount: units,
            note: body.note,
            toId: peerId,
          },
        },
        after,
      );
      if (replayed) return message;
      await ledger.post(trx, {
        key: `transfer:${id}`,
        kind: 'transfer',
        reference: id,
        entries: [
          { account: available(who.userId), amount: -units },
          { account: available(peerId), amount: units },
        ],
      });
      return message;
    });
  }

  async sendEnvelope(who: AuthInfo, body: EnvelopeInput): Promise<Message> {
    const { ledger, wallets, messages, clock } = this.deps;
    const total = this.units(body.total);
    const group = groupIdOf(body.conversationId) !== null;
    const peerId = peerOf(body.conversationId, who.userId);
    const party = group
      ? await messages.isMember(body.conversationId, who.userId)
      : peerId !== null && peerId !== who.userId;
    if (!party) throw new AppError('CONVERSATION_NOT_FOUND');
    // One share for the other person of a chat; in a group at most one per member.
    const most = group ? await messages.memberCount(body.conversationId) : 1;
    if (body.count > most || body.count > total) throw invalidField('count', 'envelopeCount');
    await this.refuseLargeWhileHeld(who, total);
    await wallets.verify(who, body.password);
    const shares =
      body.split === 'equal' ? equalShares(total, body.count) : randomShares(total, body.count);
    return messages.transact(async (trx, after) => {
      const id = newId();
      const { message, replayed } = await messages.appendAs(
        trx,
        {
          userId: who.userId,
          conversationId: body.conversationId,
          clientMsgId: body.clientMsgId,
          content: {
            kind: 'envelope',
            envelopeId: id,
            currency: 'PI',
            total,
            count: body.count,
            split: body.split,
            greeting: body.greeting,
          },
        },
        after,
      );
      if (replayed) return message;
      const now = clock.now();
      await trx
        .insertInto('envelopes')
        .values({
          id,
          sender_id: who.userId,
          conversation_id: body.conversationId,
          currency: 'PI',
          total,
          count: body.count,
          split: body.split,
          greeting: body.greeting,
          expires_at: now + ENVELOPE_TTL_HOURS * HOUR,
          refunded_at: null,
          created_at: now,
          message_seq: message.seq,
        })
        .execute();
      await trx
        .insertInto('envelope_shares')
        .values(
          shares.map((amount, slot) => ({
            envelope_id: id,
            slot,
            amount,
            user_id: null,
            opened_at: null,
            refunded: 0,
          })),
        )
        .execute();
      await ledger.post(trx, {
        key: `envelope:${id}`,
        kind: 'envelope',
        reference: id,
        entries: [
          { account: available(who.userId), amount: -total },
          { account: inEnvelopes, amount: total },
        ],
      });
      return message;
    });
  }

  /**
   * Opens a share for the caller: the lowest share nobody has, taken by a conditional
   * update (a share two people reach at once goes to one, the other takes the next), and
   * the caller's second try finds their share. Answers the envelope as it is now.
   */
  async open(who: AuthInfo, envelopeId: string): Promise<EnvelopeView> {
    const { db, ledger, clock } = this.deps;
    const envelope = await this.visible(who, envelopeId);
    if (groupIdOf(envelope.conversation_id) === null && envelope.sender_id === who.userId) {
      throw new AppError('ENVELOPE_NOT_FOR_YOU');
    }
    try {
      await db.transaction().execute(async (trx) => {
        const mine = await this.shareOf(trx, envelopeId, who.userId);
        if (mine) return;
        const now = clock.now();
        if (envelope.refunded_at !== null || Number(envelope.expires_at) <= now) {
          throw new AppError('ENVELOPE_EXPIRED');
        }
        for (;;) {
          const next = await trx
            .selectFrom('envelope_shares')
            .select(['slot', 'amount'])
            .where('envelope_id', '=', envelopeId)
            .where('user_id', 'is', null)
            .where('refunded', '=', 0)
            .orderBy('slot')
            .limit(1)
            .executeTakeFirst();
          if (!next) throw new AppError('ENVELOPE_EMPTY');
          const taken = await trx
            .updateTable('envelope_shares')
            .set({ user_id: who.userId, opened_at: now })
            .where('envelope_id', '=', envelopeId)
            .where('slot', '=', next.slot)
            .where('user_id', 'is', null)
            .where('refunded', '=', 0)
            .executeTakeFirst();
          // Someone else took it between the look and the update: the next one.
          if (taken.numUpdatedRows === 0n) continue;
          await ledger.post(trx, {
            key: `envelope:${envelopeId}:open:${who.userId}`,
            kind: 'envelope-open',
            reference: envelopeId,
            entries: [
              { account: inEnvelopes, amount: -Number(next.amount) },
              { account: available(who.userId), amount: Number(next.amount) },
            ],
          });
          return;
        }
      });
    } catch (error) {
      // The caller opened it at the same moment on another device: that one counts.
      if (!isUniqueViolation(error)) throw error;
    }
    return this.viewOf(who, envelope);
  }

  async view(who: AuthInfo, envelopeId: string): Promise<EnvelopeView> {
    return this.viewOf(who, await this.visible(who, envelopeId));
  }

  /** An envelope the caller may see, with its shares as they are now. */
  private async viewOf(who: AuthInfo, envelope: EnvelopesTable): Promise<EnvelopeView> {
    const envelopeId = envelope.id;
    const shares = await this.deps.db
      .selectFrom('envelope_shares')
      .selectAll()
      .where('envelope_id', '=', envelopeId)
      .orderBy('opened_at')
      .execute();
    const opened = shares.filter((share) => share.user_id !== null);
    const mine = opened.find((share) => share.user_id === who.userId);
    return {
      id: envelope.id,
      senderId: envelope.sender_id,
      conversationId: envelope.conversation_id,
      currency: 'PI',
      total: Number(envelope.total),
      count: envelope.count,
      split: envelope.split,
      greeting: envelope.greeting,
      createdAt: Number(envelope.created_at),
      expiresAt: Number(envelope.expires_at),
      refunded: shares
        .filter((share) => share.refunded === 1)
        .reduce((sum, share) => sum + Number(share.amount), 0),
      opened: opened.map((share) => ({
        userId: share.user_id!,
        amount: Number(share.amount),
        openedAt: Number(share.opened_at),
      })),
      mine: mine ? Number(mine.amount) : null,
    };
  }

  /**
   * Gives what nobody opened back to each expired envelope's sender, once: the shares are
   * marked in the same transaction as the ledger moves them, and a share taken by an open
   * at the same moment is that person's. Safe to run at any time, on any node.
   */
  async refundExpired(limit = 100): Promise<number> {
    const { db, ledger, clock } = this.deps;
    const now = clock.now();
    const due = await db
      .selectFrom('envelopes')
      .select(['id', 'sender_id'])
      .where('refunded_at', 'is', null)
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    for (const envelope of due) {
      await db.transaction().execute(async (trx) => {
        const closed = await trx
          .updateTable('envelopes')
          .set({ refunded_at: now })
          .where('id', '=', envelope.id)
          .where('refunded_at', 'is', null)
          .executeTakeFirst();
        if (closed.numUpdatedRows === 0n) return;
        const back = await trx
          .updateTable('envelope_shares')
          .set({ refunded: 1 })
          .where('envelope_id', '=', envelope.id)
          .where('user_id', 'is', null)
          .where('refunded', '=', 0)
          .returning('amount')
          .execute();
        const amount = back.reduce((sum, share) => sum + Number(share.amount), 0);
        if (amount === 0) return;
        await ledger.post(trx, {
          key: `envelope:${envelope.id}:refund`,
          kind: 'envelope-refund',
          reference: envelope.id,
          entries: [
            { account: inEnvelopes, amount: -amount },
            { account: available(envelope.sender_id), amount },
          ],
        });
      });
    }
    return due.length;
  }

  /**
   * The envelope, to a member who may see the message it came with (messaging's rule: not
   * before their join point or cleared history, not deleted for them, not burnt); to
   * anyone else it does not exist.
   */
  private async visible(who: AuthInfo, envelopeId: string): Promise<EnvelopesTable> {
    const envelope = await this.deps.db
      .selectFrom('envelopes')
      .selectAll()
      .where('id', '=', envelopeId)
      .executeTakeFirst();
    if (!envelope || envelope.message_seq === null) throw new AppError('NOT_FOUND');
    const message = await this.deps.messages.visibleMessage(
      who.userId,
      envelope.conversation_id,
      Number(envelope.message_seq),
    );
    if (!message) throw new AppError('NOT_FOUND');
    return envelope;
  }

  private shareOf(db: Db, envelopeId: string, userId: string) {
    return db
      .selectFrom('envelope_shares')
      .select('amount')
      .where('envelope_id', '=', envelopeId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  private units(amount: string): number {
    const units = toUnits(amount, 'PI');
    if (units === null || units <= 0) throw invalidField('amount', 'amount');
    return units;
  }
}

/** Equal shares; the units that do not divide go one each to the first shares. */
export function equalShares(total: number, count: number): number[] {
  const base = Math.floor(total / count);
  const rest = total - base * count;
  return Array.from({ length: count }, (_, slot) => base + (slot < rest ? 1 : 0));
}

/**
 * Random shares, each at least one unit, summing to the total: each share is drawn up to
 * twice the average of what is left, so none is far from the others and the last is
 * what remains. Drawn with the system's cryptographic generator.
 */
export function randomShares(total: number, count: number): number[] {
  const shares: number[] = [];
  let left = total;
  for (let remaining = count; remaining > 1; remaining -= 1) {
    const most = Math.max(1, Math.min(left - (remaining - 1), Math.floor((2 * left) / remaining)));
    const share = most <= 1 ? 1 : randomInt(1, most + 1);
    shares.push(share);
    left -= share;
  }
  shares.push(left);
  return shares;
}
