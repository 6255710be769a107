import { singleMembersOf, type Message, type ServerFrame } from '@teltlk/protocol';
import type { Reader } from '../messages/visibility.js';
import type { TranslationClaims } from './claims.js';
import type { TranslationServiceDeps } from './service.js';
import { isTranslatable, needsTranslation, type Translatable } from './translatable.js';

/**
 * Translations made before anyone asks: for the recipient of a single chat, and for the
 * online members of a group in the languages they read in (one provider call per
 * language whatever the group size); an edited text again, like a new message. The
 * sender pays, and a sender past their quota leaves readers to ask.
 */
export class EagerTranslations {
  /** Look-ups of who reads in which language, before their claims. */
  private readonly lookups = new Set<Promise<void>>();

  constructor(
    private readonly deps: TranslationServiceDeps,
    private readonly claims: TranslationClaims,
  ) {}

  /** Look-ups under way on this node. */
  inFlight(): Promise<unknown>[] {
    return [...this.lookups];
  }

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
            if (!(await needsTranslation(this.deps.scripts, message, lang))) continue;
            if (this.claims.underway(message, lang)) continue;
            // A sender past their quota: readers still get it when they ask.
            await this.claims.claim(message, lang, message.senderId, false);
          }
        }
      })
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error, conversationId }, 'eager translation failed');
      })
      .finally(() => this.lookups.delete(lookup));
    this.lookups.add(lookup);
  }
}
