import {
  TRANSLATION_TEXT_MAX_LENGTH,
  type Message,
  type PreviewTranslationBody,
  type PreviewTranslationResult,
  type ServerFrame,
  type TranslateBody,
  type TranslateResult,
  type TranslationInfoResult,
} from '@teltlk/protocol';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Audience, MemberHub } from '../../realtime/hub.js';
import type { MessageService, RemovedMessage } from '../messages/service.js';
import type { Reader } from '../messages/visibility.js';
import type { UserService } from '../users/service.js';
import { regionOf, type ChineseScripts } from './chinese.js';
import { TranslationClaims } from './claims.js';
import type { LanguageDetector } from './detect.js';
import { EagerTranslations } from './eager.js';
import type { TranslationRepo } from './repo.js';
import { translationReport } from './setup.js';
import {
  dayOf,
  draftScope,
  needsTranslation,
  textNeedsTranslation,
  toTranslation,
  unavailableOf,
  type Translatable,
} from './translatable.js';
import { isConversion, TranslateError, type Translator } from './translator.js';

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
 *
 * The claims and the provider work are TranslationClaims' (claims.ts), the translations
 * nobody asked for yet EagerTranslations' (eager.ts); this is what callers see of both.
 */
export class TranslationService {
  private readonly claims: TranslationClaims;
  private readonly eager: EagerTranslations;

  constructor(private readonly deps: TranslationServiceDeps) {
    this.claims = new TranslationClaims(deps);
    this.eager = new EagerTranslations(deps, this.claims);
  }

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
    for (;;) {
      const pending = [...this.eager.inFlight(), ...this.claims.inFlight()];
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

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
          message.senderId !== userId && (await needsTranslation(this.deps.scripts, message, lang)),
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
        if (row && !body.retry && this.claims.settledOrHeld(row))
          return Promise.resolve(toTranslation(row));
        return this.claims.claim(message, lang, userId, body.retry === true, row);
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
    if (!(await textNeedsTranslation(scripts, body.text, from, body.to))) {
      return { from, to: body.to, text: body.text };
    }
    const conversion = isConversion(from, body.to);
    const day = dayOf(this.deps.clock.now());
    if (!conversion && !(await this.claims.charge(userId, day, body.text.length))) {
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

  /** After a send commits: the recipient of a single chat gets it in their language. */
  messagesSent(sent: readonly Message[]): void {
    this.eager.messagesSent(sent);
  }

  /** After a node pushed group frames to its online members: their languages, each once. */
  membersReached(
    conversationId: string,
    frames: readonly ServerFrame[],
    readers: readonly Reader[],
  ): void {
    this.eager.membersReached(conversationId, frames, readers);
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
  readersOf(
    conversationId: string,
    userIds: readonly string[],
    audience: Audience,
  ): Promise<Reader[]> {
    return this.claims.readersOf(conversationId, userIds, audience);
  }
}
