import {
  singleMembersOf,
  TRANSLATION_TEXT_MAX_LENGTH,
  type Message,
  type PreviewTranslationBody,
  type PreviewTranslationResult,
  type ServerFrame,
  type TranslateBody,
  type TranslateResult,
  type Translation,
  type TranslationInfoResult,
} from '@teltlk/protocol';
import type { Logger } from 'pino';
import type { TranslationRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Audience, MemberHub } from '../../realtime/hub.js';
import type { MessageService, RemovedMessage } from '../messages/service.js';
import type { Reader } from '../messages/visibility.js';
import type { UserService } from '../users/service.js';
import {
  isChineseScript,
  languageOfScript,
  regionOf,
  TRADITIONAL,
  type ChineseScripts,
} from './chinese.js';
import type { LanguageDetector } from './detect.js';
import type { TranslationRepo } from './repo.js';
import { translationReport } from './setup.js';
import { isConversion, TranslateError, type Translator } from './translator.js';

/** A text message with its source language: what can be translated. */
type Translatable = Message & { content: { kind: 'text'; text: string }; lang: string };

export interface TranslationServiceDeps {
  repo: TranslationRepo;
  clock: Clock;
  hub: MemberHub;
  messages: MessageService;
  users: UserService;
  detector: LanguageDetector;
  scripts: ChineseScripts;
  translator: Translator;
  logger: Logger;
  dailyCharacters: number;
  /** How long a pending claim holds before another node may take it over. */
  leaseMs: number;
}

/**
 * Translations of messages into their readers' languages. Each (message, language) is
 * made once: claimed in the database as `pending` (one claimer wins, on any node), made
 * by the provider chain, stored as `done` or `failed`, and announced with a
 * `translation` frame to the readers of that language. Nothing here runs before a
 * message is delivered: translations start after the commit and its pushes.
 *
 * Made eagerly for the recipient of a single chat and for the online members of a group
 * (the languages they read in, so one provider call per language whatever the group
 * size); anyone else asks when they read. Nobody gets a translation of their own
 * message, nor one of a text already in their language and script. Each translation a
 * provider makes counts its characters against the daily quota of the user who caused
 * it: the sender when eager, the reader when asked. Chinese converted from one script
 * into the other costs nothing and counts nothing.
 *
 * A pair no provider has is stored as `failed` with TRANSLATION_UNAVAILABLE, and shown
 * to clients as `unavailable`: not a failure a retry could mend, and where the device
 * has a translator of its own, it may take over. Without any provider such pairs are
 * answered unavailable at once, and neither claimed nor stored.
 */
export class TranslationService {
  /** Claims under way on this node, by `message\nlang`: concurrent askers share one. */
  private readonly claims = new Map<string, Promise<Translation>>();
  /** Provider work under way on this node, by `message\nlang`. */
  private readonly jobs = new Map<string, Promise<void>>();
  /** Eager look-ups of who reads in which language, before their claims. */
  private readonly lookups = new Set<Promise<void>>();

  constructor(private readonly deps: TranslationServiceDeps) {}

  /** Whether a provider is configured; without one only Chinese scripts are converted. */
  get available(): boolean {
    return this.deps.translator.available;
  }

  info(): TranslationInfoResult {
    return {
      available: this.available,
      maxLength: TRANSLATION_TEXT_MAX_LENGTH,
      dailyCharacters: this.deps.dailyCharacters,
    };
  }

  /** The start-up report: providers and their pairs (`translationReport`). */
  report(signal?: AbortSignal): Promise<string[]> {
    return translationReport(this.deps.translator.providers, signal);
  }

  /** Resolves once the provider work started so far has been stored (tests, shutdown). */
  async drain(): Promise<void> {
    while (this.lookups.size > 0 || this.claims.size > 0 || this.jobs.size > 0) {
      await Promise.allSettled([...this.lookups, ...this.claims.values(), ...this.jobs.values()]);
    }
  }

  // -------------------------------------------------------------------------- readers

  /**
   * Translations a reader asks for: stored ones at once, the rest claimed and `pending`.
   * Messages that need none (their own, or already in the reader's language) are left out.
   */
  async translate(userId: string, body: TranslateBody): Promise<TranslateResult> {
    const { messages, translator, clock } = this.deps;
    const reader = await messages.readerState(userId, body.conversationId);
    const lang = body.lang ?? reader.lang;
    const seqs = [...new Set(body.seqs)];
    const visible = await messages.visibleBySeqs(body.conversationId, seqs, reader.minSeq);
    const needed = await Promise.all(
      visible.map(
        async (message) =>
          message.senderId !== userId && (await this.needsTranslation(message, lang)),
      ),
    );
    const wanted = visible.filter((message, index): message is Translatable => needed[index]!);
    const unavailable = wanted.filter((message) => !translator.mayTranslate(message.lang, lang));
    const possible = wanted.filter((message) => translator.mayTranslate(message.lang, lang));
    const stored = new Map(
      (
        await this.deps.repo.findMany(
          possible.map(({ id }) => id),
          lang,
        )
      ).map((row) => [row.message_id, row]),
    );
    const made = await Promise.all(
      possible.map((message) => {
        const row = stored.get(message.id);
        if (row && !body.retry && this.settledOrHeld(row))
          return Promise.resolve(toTranslation(row));
        return this.claim(message, lang, userId, body.retry === true, row);
      }),
    );
    const now = clock.now();
    return {
      translations: [
        ...made,
        ...unavailable.map((message) => unavailableOf(message, lang, now)),
      ].sort((a, b) => a.seq - b.seq),
    };
  }

  /** The sender's own text in another language, before sending; nothing is stored. */
  async preview(userId: string, body: PreviewTranslationBody): Promise<PreviewTranslationResult> {
    const { users, detector, scripts, translator } = this.deps;
    const user = await users.get(userId);
    const tongue = user.mother_tongue;
    const script = await scripts.scriptOf(body.text);
    const from = (await detector.detect(body.text, tongue, script)) ?? tongue;
    if (!(await this.textNeedsTranslation(body.text, from, body.to))) {
      return { from, to: body.to, text: body.text };
    }
    const conversion = isConversion(from, body.to);
    const day = dayOf(this.deps.clock.now());
    if (!conversion && !(await this.charge(userId, day, body.text.length))) {
      throw new AppError('TRANSLATION_QUOTA_EXCEEDED');
    }
    try {
      const made = await translator.translate(body.text, from, body.to, {
        scope: draftScope(userId),
        region: regionOf(user.country),
      });
      return { from, to: body.to, text: made.text };
    } catch (error) {
      if (error instanceof TranslateError) throw new AppError(error.code);
      throw error;
    }
  }

  // -------------------------------------------------------------------------- eager

  /** After a send commits: the recipient of a single chat gets it in their language. */
  messagesSent(sent: readonly Message[]): void {
    // A group's online members are reached by node (membersReached).
    const singles = sent.filter(({ conversationId }) => singleMembersOf(conversationId));
    this.afterEdits(singles, (edited) => this.messagesSent(edited));
    const byConversation = new Map<string, Translatable[]>();
    for (const message of sent) {
      if (!isTranslatable(message) || !singleMembersOf(message.conversationId)) continue;
      // Nobody's language need be read for a text nothing can be made of.
      if (!this.deps.translator.mayTranslateFrom(message.lang)) continue;
      const list = byConversation.get(message.conversationId) ?? [];
      list.push(message);
      byConversation.set(message.conversationId, list);
    }
    for (const [conversationId, messages] of byConversation) {
      const pair = singleMembersOf(conversationId)!;
      this.eager(conversationId, messages, this.deps.messages.readersAmong(conversationId, pair));
    }
  }

  /**
   * After a node pushed group frames to its online members: the languages those members
   * read in (as the delivery's look-up found them), each made once.
   */
  membersReached(
    conversationId: string,
    frames: readonly ServerFrame[],
    readers: readonly Reader[],
  ): void {
    if (readers.length === 0) return;
    const sent = frames.flatMap((frame) => (frame.t === 'message' ? [frame.message] : []));
    this.afterEdits(sent, (edited) =>
      this.eager(conversationId, edited.filter(isTranslatable), Promise.resolve(readers)),
    );
    const messages = sent.filter(isTranslatable);
    if (messages.length > 0) this.eager(conversationId, messages, Promise.resolve(readers));
  }

  /**
   * The texts these edit notices changed, as they read now, to `then`: translated again
   * like new messages (their old translations went with the edit).
   */
  private afterEdits(sent: readonly Message[], then: (edited: Message[]) => void): void {
    const notices = sent.filter((message) => message.content.kind === 'edit');
    if (notices.length === 0) return;
    const lookup = Promise.all(
      notices.map(({ conversationId, content }) =>
        this.deps.messages.visibleBySeqs(
          conversationId,
          content.kind === 'edit' ? [content.targetSeq] : [],
          0,
        ),
      ),
    )
      .then((found) => then(found.flat()))
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, 'could not translate an edited text again');
      })
      .finally(() => this.lookups.delete(lookup));
    this.lookups.add(lookup);
  }

  /** Translations of messages that are gone go with them. */
  messagesRemoved(removed: readonly RemovedMessage[]): void {
    this.deps.repo.deleteFor(removed).catch((error: unknown) => {
      this.deps.logger.warn({ err: error }, 'could not delete translations of removed messages');
    });
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

  /**
   * Each message into the languages these readers read the conversation in (those with
   * translation on). The sender is no reader of their own message; languages nobody can
   * translate into are left alone.
   */
  private eager(
    conversationId: string,
    messages: readonly Translatable[],
    readersOf: Promise<readonly Reader[]>,
  ): void {
    const lookup = readersOf
      .then(async (readers) => {
        for (const message of messages) {
          const langs = new Set(
            readers.flatMap(({ userId, lang }) =>
              userId === message.senderId || lang === null ? [] : [lang],
            ),
          );
          for (const lang of langs) {
            if (!this.deps.translator.mayTranslate(message.lang, lang)) continue;
            if (!(await this.needsTranslation(message, lang))) continue;
            const key = `${message.id}\n${lang}`;
            if (this.jobs.has(key) || this.claims.has(key)) continue;
            // A sender past their quota: readers still get it when they ask.
            await this.claim(message, lang, message.senderId, false);
          }
        }
      })
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error, conversationId }, 'eager translation failed');
      })
      .finally(() => this.lookups.delete(lookup));
    this.lookups.add(lookup);
  }

  // -------------------------------------------------------------------------- claims

  /** A done or failed row, or a pending one whose claimer is still within its lease. */
  private settledOrHeld(row: TranslationRow): boolean {
    return row.status !== 'pending' || Number(row.lease_until) > this.deps.clock.now();
  }

  /**
   * Claims (message, lang) and starts the provider work, answering `pending`; or answers
   * what someone else's claim shows. One claim per key at a time on this node.
   */
  private claim(
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
    this.start(message, lang, retry, leaseUntil);
    return pendingOf(message, lang, now);
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

  // -------------------------------------------------------------------------- quota

  /**
   * Counts `characters` against the user's quota for `day`; false, counting nothing, when
   * they would pass it.
   */
  private charge(userId: string, day: string, characters: number): Promise<boolean> {
    return this.deps.repo.chargeUsage(userId, day, characters, this.deps.dailyCharacters);
  }

  // -------------------------------------------------------------------------- languages

  /** Whether a reader of `lang` needs a message translated. */
  private async needsTranslation(message: Message, lang: string): Promise<boolean> {
    return (
      isTranslatable(message) && this.textNeedsTranslation(message.content.text, message.lang, lang)
    );
  }

  /**
   * Whether a text in `from` needs translating for a reader of `to`. A Chinese text whose
   * characters are common to both scripts reads as it is in either; one in a script is
   * named by it already (`languageOf`), but the script is read again since the text's
   * language may have been its sender's guess.
   */
  private async textNeedsTranslation(text: string, from: string, to: string): Promise<boolean> {
    if (from === to) return false;
    if (!isChineseScript(from) || !isChineseScript(to)) return true;
    const script = await this.deps.scripts.scriptOf(text);
    return script !== 'either' && languageOfScript(script) !== to;
  }

  /** For Traditional into Simplified: the region whose phrasing the sender writes in. */
  private async regionOfSender(message: Translatable, lang: string) {
    if (message.lang !== TRADITIONAL || !isConversion(message.lang, lang)) return undefined;
    const sender = await this.deps.users.get(message.senderId).catch(() => null);
    return regionOf(sender?.country);
  }
}

function isTranslatable(message: Message): message is Translatable {
  return message.content.kind === 'text' && message.lang !== null && message.revokedAt === null;
}

/** A user's drafts share a language model's call with nobody else's texts. */
/**
 * Texts that may share a language model's prompt: one sender's in one conversation. A
 * crafted text can make a model copy its neighbours into its own translation, which goes
 * to its sender; sharing prompts only with the sender's own texts means there is nothing
 * to copy that the sender may not read (a late joiner never shares a prompt with history
 * from before they joined).
 */
function messageScope(message: Translatable): string {
  return `${message.conversationId}\n${message.senderId}`;
}

function draftScope(userId: string): string {
  return `draft:${userId}`;
}

/** The UTC day of a time, as the quota counts. */
function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

function pendingOf(message: Translatable, lang: string, at: number): Translation {
  return {
    conversationId: message.conversationId,
    seq: message.seq,
    messageId: message.id,
    lang,
    from: message.lang,
    status: 'pending',
    text: null,
    error: null,
    at,
  };
}

/** What a reader is told of a pair no provider translates, when nothing is stored of it. */
function unavailableOf(message: Translatable, lang: string, at: number): Translation {
  return {
    ...pendingOf(message, lang, at),
    status: 'unavailable',
    error: 'TRANSLATION_UNAVAILABLE',
  };
}

function toTranslation(row: TranslationRow): Translation {
  return {
    conversationId: row.conversation_id,
    seq: Number(row.seq),
    messageId: row.message_id,
    lang: row.lang,
    from: row.source_lang,
    // Stored as a failure, since that is what a retry takes up again.
    status:
      row.status === 'failed' && row.error === 'TRANSLATION_UNAVAILABLE'
        ? 'unavailable'
        : row.status,
    text: row.text,
    error: row.error,
    at: Number(row.updated_at),
  };
}
