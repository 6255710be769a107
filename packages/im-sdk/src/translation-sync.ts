import { TRANSLATE_SEQS_MAX, type Translation, type TranslationInfoResult } from '@teltlk/protocol';
import { routes, ApiError, type ApiClient } from '@teltlk/client';
import type { LocalStore, StoredConversation, StoredMessage } from './store.js';
import { isNewerTranslation, needsTranslation, translationTarget } from './translation.js';

export interface TranslationSyncOptions {
  api: ApiClient;
  userId: string;
  /** Runs a change of local state in the engine's queue. */
  serial<T>(fn: (store: LocalStore) => Promise<T>): Promise<T>;
  conversation(conversationId: string): StoredConversation | undefined;
  /** Translations of a conversation changed (its screens re-read them). */
  onChange(conversationId: string): void;
  /** The server's translation info changed. */
  onInfo(info: TranslationInfoResult): void;
  /** A translation arrived or changed. */
  onTranslation(translation: Translation): void;
  /** Failures of work nobody waits for. */
  onBackgroundError: (error: unknown) => void;
}

/**
 * Translations of received messages: asks the server for the ones screens show (one
 * request per conversation and tick, never twice for the same one), keeps the answers
 * and the `translation` frames in the local database, and asks again for pending ones
 * after a reconnect, since their frame may have been missed. A server without a provider
 * is asked too: it converts Chinese between its scripts, and calls the other pairs
 * `unavailable`, which the app may translate on the device.
 */
export class TranslationSync {
  /** The reader's mother tongue: the target where a conversation sets none. */
  private motherTongue: string | null = null;
  private serverInfo: TranslationInfoResult | null = null;
  private infoLoading = false;
  /** Seqs screens asked to translate in this tick, per conversation. */
  private readonly wanted = new Map<string, Set<number>>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Translations (by `translationKey`) asked for and not answered yet. */
  private readonly inFlight = new Set<string>();
  /** Asked for, and the server left them out: they need no translation. */
  private readonly needNone = new Set<string>();
  /** Being made again (retranslate, retry): shown as pending until the answer. */
  private readonly remaking = new Set<string>();
  /** Asked for while the network failed: asked again on the next connect. */
  private readonly unanswered = new Map<
    string,
    { conversationId: string; lang: string; seq: number }
  >();
  /**
   * Answered by the server in this session. A stored copy that is not done (failed,
   * unavailable) is asked for again once a session, so that every device of a person
   * comes to show what the server holds now (another device's retry, a provider added,
   * a quota renewed), not what it last heard.
   */
  private readonly confirmed = new Set<string>();
  /**
   * Refused by the server (an error answer, not the network): shown as failed with the
   * error's code, so that a bubble does not wait for an answer that will not come.
   */
  private readonly refused = new Map<string, { code: string; at: number }>();
  private stopped = false;

  constructor(private readonly options: TranslationSyncOptions) {}

  /** What the server offers; null until it has answered. */
  get info(): TranslationInfoResult | null {
    return this.serverInfo;
  }

  /** Returns whether the target of conversations without their own language changed. */
  setMotherTongue(code: string | null): boolean {
    if (code === this.motherTongue) return false;
    this.motherTongue = code;
    return true;
  }

  targetOf(conversation: StoredConversation | undefined): string | null {
    return translationTarget(conversation, this.motherTongue);
  }

  start(): void {
    this.stopped = false;
  }

  /** Forgets everything but the database's copies (sign-out, stop). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wanted.clear();
    this.inFlight.clear();
    this.needNone.clear();
    this.remaking.clear();
    this.unanswered.clear();
    this.confirmed.clear();
    this.refused.clear();
    this.serverInfo = null;
  }

  /** The socket is (back) up: the info if not known yet, and pending ones again. */
  onConnected(): void {
    void this.loadInfo().catch(this.options.onBackgroundError);
    void this.askPendingAgain().catch(this.options.onBackgroundError);
  }

  /**
   * The stored translations of shown rows; ones being made again read as pending, and
   * ones the server refused to make (with nothing stored) as failed.
   */
  async shown(
    store: LocalStore,
    conversationId: string,
    target: string,
    rows: readonly StoredMessage[],
  ): Promise<Translation[]> {
    const seqs = rows.flatMap((row) => (row.seq === null ? [] : [row.seq]));
    const stored = await store.translationsOf(conversationId, target, seqs);
    const shown: Translation[] = stored.map((translation) =>
      this.remaking.has(translationKey(conversationId, target, translation.seq))
        ? { ...translation, status: 'pending', error: null }
        : translation,
    );
    if (this.refused.size === 0) return shown;
    const have = new Set(stored.map((translation) => translation.seq));
    for (const row of rows) {
      if (row.seq === null || row.id === null || row.lang === null || have.has(row.seq)) continue;
      const refusal = this.refused.get(translationKey(conversationId, target, row.seq));
      if (!refusal) continue;
      shown.push({
        conversationId,
        seq: row.seq,
        messageId: row.id,
        lang: target,
        from: row.lang,
        status: 'failed',
        text: null,
        error: refusal.code,
        at: refusal.at,
      });
    }
    return shown.sort((a, b) => a.seq - b.seq);
  }

  /** Queues seqs to translate; the whole tick's seqs go in one request. */
  request(conversationId: string, seqs: readonly number[]): void {
    if (this.stopped || seqs.length === 0) return;
    let wanted = this.wanted.get(conversationId);
    if (!wanted) {
      wanted = new Set();
      this.wanted.set(conversationId, wanted);
    }
    for (const seq of seqs) wanted.add(seq);
    // A macrotask, not a microtask: every row a render shows asks from its own effect.
    this.timer ??= setTimeout(() => {
      this.timer = null;
      const batches = [...this.wanted];
      this.wanted.clear();
      for (const [id, batch] of batches) {
        void this.translateNew(id, [...batch]).catch(this.options.onBackgroundError);
      }
    }, 0);
  }

  /** Makes one translation again (retranslate, or retry a failed one). */
  async retranslate(conversationId: string, seq: number): Promise<void> {
    const conversation = this.options.conversation(conversationId);
    const target = this.targetOf(conversation);
    if (!conversation || target === null) return;
    const key = translationKey(conversationId, target, seq);
    if (this.remaking.has(key)) return;
    this.refused.delete(key);
    this.remaking.add(key);
    this.inFlight.add(key);
    this.options.onChange(conversationId);
    try {
      await this.post(conversationId, target, [seq], true);
    } finally {
      this.remaking.delete(key);
      this.options.onChange(conversationId);
    }
  }

  /** Keeps translations newer than the stored copies (answers and socket frames). */
  async store(store: LocalStore, translations: readonly Translation[]): Promise<void> {
    if (translations.length === 0) return;
    const stored = await store.translations.bulkGet(
      translations.map((translation) => [translation.messageId, translation.lang]),
    );
    const changed = translations.filter((translation, index) =>
      isNewerTranslation(translation, stored[index]),
    );
    if (changed.length === 0) return;
    await store.translations.bulkPut(changed);
    for (const translation of changed) {
      this.options.onChange(translation.conversationId);
      this.options.onTranslation(translation);
    }
  }

  /**
   * Asks for the translations of messages that need one and have none yet: none stored,
   * or a stored one that is not done and was not confirmed in this session (the server
   * answers what it holds; a failed one is made again only on request). Pending ones are
   * asked again on each connect (`askPendingAgain`).
   */
  private async translateNew(conversationId: string, seqs: readonly number[]): Promise<void> {
    const conversation = this.options.conversation(conversationId);
    const target = this.targetOf(conversation);
    if (!conversation?.translate || target === null) return;
    const keyOf = (seq: number) => translationKey(conversationId, target, seq);
    const candidates = seqs.filter(
      (seq) =>
        !this.inFlight.has(keyOf(seq)) &&
        !this.needNone.has(keyOf(seq)) &&
        !this.refused.has(keyOf(seq)),
    );
    if (candidates.length === 0) return;
    // Claimed before the look-up, so a request of the next tick cannot take them too.
    for (const seq of candidates) this.inFlight.add(keyOf(seq));
    let ask: number[] = [];
    try {
      ask = await this.options.serial(async (store) => {
        const [rows, known] = await Promise.all([
          store.bySeqs(conversationId, candidates),
          store.translationsOf(conversationId, target, candidates),
        ]);
        const have = new Set(
          known
            .filter(
              (translation) =>
                translation.status === 'done' ||
                translation.status === 'pending' ||
                this.confirmed.has(keyOf(translation.seq)),
            )
            .map((translation) => translation.seq),
        );
        const scope = { selfId: this.options.userId, translate: true, target };
        return rows.flatMap((row) =>
          row.seq !== null && !have.has(row.seq) && needsTranslation(row, scope) ? [row.seq] : [],
        );
      });
    } finally {
      const asking = new Set(ask);
      for (const seq of candidates) if (!asking.has(seq)) this.inFlight.delete(keyOf(seq));
    }
    if (ask.length > 0) await this.post(conversationId, target, ask, false);
  }

  /**
   * Asks the server in requests of at most TRANSLATE_SEQS_MAX seqs, whose keys the
   * caller has marked in flight, and stores the answers.
   */
  private async post(
    conversationId: string,
    lang: string,
    seqs: readonly number[],
    retry: boolean,
  ): Promise<void> {
    const chunks: number[][] = [];
    for (let index = 0; index < seqs.length; index += TRANSLATE_SEQS_MAX) {
      chunks.push(seqs.slice(index, index + TRANSLATE_SEQS_MAX));
    }
    const results = await Promise.allSettled(
      chunks.map((chunk) => this.postChunk(conversationId, lang, chunk, retry)),
    );
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private async postChunk(
    conversationId: string,
    lang: string,
    seqs: number[],
    retry: boolean,
  ): Promise<void> {
    try {
      const result = await this.options.api.call(routes.translation.translate, {
        body: { conversationId, seqs, lang, ...(retry ? { retry: true } : {}) },
      });
      const answered = new Set(result.translations.map((translation) => translation.seq));
      for (const seq of seqs) {
        const key = translationKey(conversationId, lang, seq);
        this.confirmed.add(key);
        if (!answered.has(seq)) this.needNone.add(key);
      }
      await this.options.serial((store) => this.store(store, result.translations));
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) {
        for (const seq of seqs) {
          this.unanswered.set(translationKey(conversationId, lang, seq), {
            conversationId,
            lang,
            seq,
          });
        }
      } else if (error instanceof ApiError) {
        // Answered with an error (rate limit, server failure): failed until a retry.
        const at = Date.now();
        for (const seq of seqs) {
          this.refused.set(translationKey(conversationId, lang, seq), { code: error.code, at });
        }
        this.options.onChange(conversationId);
      }
      throw error;
    } finally {
      for (const seq of seqs) this.inFlight.delete(translationKey(conversationId, lang, seq));
    }
  }

  /**
   * Asks again for every translation still pending (the answer says where each stands),
   * and for those asked for while the network was down.
   */
  private async askPendingAgain(): Promise<void> {
    const stored = await this.options.serial((store) =>
      store.translations.where('status').equals('pending').toArray(),
    );
    const pending = [...stored, ...this.unanswered.values()];
    this.unanswered.clear();
    const groups = new Map<string, { conversationId: string; lang: string; seqs: number[] }>();
    for (const { conversationId, lang, seq } of pending) {
      const key = translationKey(conversationId, lang, seq);
      if (!this.options.conversation(conversationId)?.translate || this.inFlight.has(key)) continue;
      this.inFlight.add(key);
      const groupKey = `${conversationId}\u0000${lang}`;
      const group = groups.get(groupKey) ?? { conversationId, lang, seqs: [] };
      group.seqs.push(seq);
      groups.set(groupKey, group);
    }
    await Promise.all(
      [...groups.values()].map((group) =>
        this.post(group.conversationId, group.lang, group.seqs, false).catch(
          this.options.onBackgroundError,
        ),
      ),
    );
  }

  /** Fetched once per sign-in; a failed fetch is tried again on the next connect. */
  private async loadInfo(): Promise<void> {
    if (this.serverInfo || this.infoLoading) return;
    this.infoLoading = true;
    try {
      const info = await this.options.api.call(routes.translation.info);
      if (this.stopped) return;
      this.serverInfo = info;
      this.options.onInfo(info);
    } finally {
      this.infoLoading = false;
    }
  }
}

/** One translation: a message of a conversation in a target language. */
function translationKey(conversationId: string, lang: string, seq: number): string {
  return `${conversationId}\u0000${lang}\u0000${seq}`;
}
