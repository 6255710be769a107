import { singleMembersOf, type ServerFrame, type Translation } from '@teltlk/protocol';
import type { TranslationRow } from '../../db/schema.js';
import type { Audience } from '../../realtime/hub.js';
import type { Reader } from '../messages/visibility.js';
import { regionOf, TRADITIONAL } from './chinese.js';
import type { TranslationRepo } from './repo.js';
import type { TranslationServiceDeps } from './service.js';
import {
  dayOf,
  messageScope,
  pendingOf,
  toTranslation,
  type Translatable,
} from './translatable.js';
import { isConversion, TranslateError } from './translator.js';

/**
 * Each (message, language) made once: claimed in the database as `pending` (one claimer
 * wins, on any node; the quota charged first), made by the provider chain, stored as
 * `done` or `failed`, and announced with a `translation` frame to the readers of that
 * language. A settled one made again (retry, retranslate) is announced `pending` first, so
 * that all of a reader's devices show the same state.
 */
export class TranslationClaims {
  /** Claims under way on this node, by `message\nlang`: concurrent askers share one. */
  private readonly claims = new Map<string, Promise<Translation>>();
  /** Provider work under way on this node, by `message\nlang`. */
  private readonly jobs = new Map<string, Promise<void>>();

  constructor(private readonly deps: TranslationServiceDeps) {}

  /** Claims and provider work under way on this node. */
  inFlight(): Promise<unknown>[] {
    return [...this.claims.values(), ...this.jobs.values()];
  }

  /** Whether (message, lang) is being claimed or made on this node. */
  underway(message: Translatable, lang: string): boolean {
    const key = `${message.id}\n${lang}`;
    return this.jobs.has(key) || this.claims.has(key);
  }

  /**
   * Of these members, those who read the conversation in `lang` (frame audience), with
   * the seq each one's history starts after: a translation of an older message is not
   * theirs.
   */
  async readersOf(
    conversationId: string,
    userIds: readonly string[],
    { lang, except }: Audience,
  ): Promise<Reader[]> {
    const readers = await this.deps.messages.readersAmong(conversationId, userIds);
    return readers.filter((reader) => reader.lang === lang && reader.userId !== except);
  }

  /** A done or failed row, or a pending one whose claimer is still within its lease. */
  settledOrHeld(row: TranslationRow): boolean {
    return row.status !== 'pending' || Number(row.lease_until) > this.deps.clock.now();
  }

  /**
   * Claims (message, lang) and starts the provider work, answering `pending`; or answers
   * what someone else's claim shows. One claim per key at a time on this node.
   */
  claim(
    message: Translatable,
    lang: string,
    chargeTo: string,
    retry: boolean,
    /** The stored row as last read; undefined: none was. */
    row?: TranslationRow,
  ): Promise<Translation> {
    const key = `${message.id}\n${lang}`;
    if (this.jobs.has(key)) return Promise.resolve(pendingOf(message, lang, this.deps.clock.now()));
    const under = this.claims.get(key);
    if (under) return under;
    const claim = this.takeClaim(message, lang, chargeTo, retry, row).finally(() =>
      this.claims.delete(key),
    );
    this.claims.set(key, claim);
    return claim;
  }

  /**
   * Counts `characters` against the user's quota for `day`; false, counting nothing, when
   * they would pass it.
   */
  charge(userId: string, day: string, characters: number): Promise<boolean> {
    return this.deps.repo.chargeUsage(userId, day, characters, this.deps.dailyCharacters);
  }

  private async takeClaim(
    message: Translatable,
    lang: string,
    chargeTo: string,
    retry: boolean,
    row: TranslationRow | undefined,
  ): Promise<Translation> {
    const { repo, clock, leaseMs } = this.deps;
    const now = clock.now();
    const day = dayOf(now);
    // A pending row is taken over only once its lease ran out; a settled one on retry.
    const claimable = row ? (row.status === 'pending' ? !this.settledOrHeld(row) : retry) : true;
    if (!claimable) return this.current(message, lang, now);
    // Charged before the claim, in one conditional statement, so that concurrent claims
    // (on any node) cannot pass the quota together; given back when the claim is lost.
    // A conversion between Chinese scripts costs nothing, so it counts nothing.
    const characters = isConversion(message.lang, lang) ? 0 : message.content.text.length;
    if (characters > 0 && !(await this.charge(chargeTo, day, characters))) {
      return {
        ...pendingOf(message, lang, now),
        status: 'failed',
        error: 'TRANSLATION_QUOTA_EXCEEDED',
      };
    }
    let claimed = false;
    const leaseUntil = now + leaseMs;
    try {
      claimed = row
        ? await repo.reclaim(row, now, leaseUntil)
        : await repo.insertClaim(
            {
              message_id: message.id,
              lang,
              conversation_id: message.conversationId,
              seq: message.seq,
              source_lang: message.lang,
            },
            now,
            leaseUntil,
          );
    } finally {
      if (!claimed && characters > 0) await repo.refundUsage(chargeTo, day, characters);
    }
    if (!claimed) return this.current(message, lang, now);
    const pending = pendingOf(message, lang, now);
    // Made again (a retry): every reader's devices show it under way, not the old state.
    if (row && row.status !== 'pending') this.announce(pending, message.senderId);
    this.start(message, lang, retry, leaseUntil);
    return pending;
  }

  /** What the stored row shows, for a claim someone else holds. */
  private async current(message: Translatable, lang: string, now: number): Promise<Translation> {
    const row = await this.deps.repo.find(message.id, lang);
    return row ? toTranslation(row) : pendingOf(message, lang, now);
  }

  /** Makes the translation, stores how it went and tells its readers. */
  private start(message: Translatable, lang: string, fresh: boolean, leaseUntil: number): void {
    const key = `${message.id}\n${lang}`;
    const job = this.make(message, lang, fresh, leaseUntil).finally(() => this.jobs.delete(key));
    this.jobs.set(key, job);
  }

  /**
   * `leaseUntil` names this claim: if the row was taken over since (the lease ran out), or
   * dropped (the text was edited meanwhile), what was made is of no use and is not stored.
   */
  private async make(
    message: Translatable,
    lang: string,
    fresh: boolean,
    leaseUntil: number,
  ): Promise<void> {
    const { repo, translator, clock, logger } = this.deps;
    let outcome: Parameters<TranslationRepo['settle']>[3];
    try {
      const made = await translator.translate(message.content.text, message.lang, lang, {
        scope: messageScope(message),
        fresh,
        region: await this.regionOfSender(message, lang),
      });
      outcome = { status: 'done', text: made.text, error: null, provider: made.provider };
    } catch (error) {
      const code = error instanceof TranslateError ? error.code : 'TRANSLATION_FAILED';
      // No provider has the pair: nothing went wrong.
      const log = code === 'TRANSLATION_UNAVAILABLE' ? logger.debug : logger.warn;
      log.call(
        logger,
        {
          err: error instanceof TranslateError ? error.cause : error,
          from: message.lang,
          to: lang,
        },
        'translation failed',
      );
      outcome = { status: 'failed', text: null, error: code, provider: null };
    }
    try {
      const row = await repo.settle(message.id, lang, leaseUntil, outcome, clock.now());
      if (row) this.announce(toTranslation(row), message.senderId);
    } catch (error) {
      // The lease runs out and the next reader claims it again.
      logger.warn({ err: error }, 'could not store a translation');
    }
  }

  /** The translation frame, to the readers of its language only, its sender never. */
  private announce(translation: Translation, senderId: string): void {
    const frame: ServerFrame = { t: 'translation', translation };
    const { conversationId, lang } = translation;
    const audience: Audience = { lang, except: senderId };
    const pair = singleMembersOf(conversationId);
    if (!pair) {
      this.deps.hub.toOnlineMembers(conversationId, [frame], audience);
      return;
    }
    this.readersOf(conversationId, pair, audience).then(
      (readers) =>
        this.deps.hub.toUsers(
          readers.filter(({ minSeq }) => translation.seq > minSeq).map(({ userId }) => userId),
          frame,
        ),
      () => undefined,
    );
  }

  /** For Traditional into Simplified: the region whose phrasing the sender writes in. */
  private async regionOfSender(message: Translatable, lang: string) {
    if (message.lang !== TRADITIONAL || !isConversion(message.lang, lang)) return undefined;
    const sender = await this.deps.users.get(message.senderId).catch(() => null);
    return regionOf(sender?.country);
  }
}
