import {
  MERGED_DEPTH_MAX,
  isSentContent,
  mediaIdOf,
  type MergedContent,
  type MergedItem,
  type MessageContent,
  type SentContent,
  type UploadedMedia,
} from '@teltlk/protocol';
import type { Db, MessageRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { ContactService } from '../contacts/service.js';
import { languageOf } from '../translation/detect.js';
import type { MediaReads } from './directory.js';
import type { MessageRepo } from './repo.js';
import type { Authorized, Composed, Languages, Send } from './send-stages.js';

/**
 * The compose stage of the send pipeline (send.ts): each authorized send's entry as it
 * will be stored, written from what the server holds (cards from accounts, media as
 * stored, records of merged forwards from the messages their senders can see).
 */
export class Composer {
  constructor(
    private readonly deps: {
      repo: MessageRepo;
      clock: Clock;
      contacts: ContactService;
      media: MediaReads;
    },
  ) {}

  /**
   * Each send's entry. A block holds in groups: a mention of someone who blocked the
   * sender is dropped (the message still goes); one look-up for the batch. A card is
   * written from its account (a card of nobody is refused).
   */
  async compose(trx: Db, sends: readonly Authorized[], languages: Languages): Promise<Composed[]> {
    const mentioned = sends.flatMap(({ send }) => {
      const { userId, body } = send.request;
      const mentions = body.content.kind === 'text' ? body.content.mentions : undefined;
      return (mentions ?? []).map((id) => [id, userId] as const);
    });
    const blocks = await this.deps.contacts.blocksAmong(mentioned, trx);
    // Cards are written from the accounts as they are now, not from what the sender sent.
    const cards = await this.deps.contacts.cards(
      sends.flatMap(({ send }) => {
        const { content } = send.request.body;
        return content.kind === 'card' ? [content.user.id] : [];
      }),
      trx,
    );
    const media = await this.mediaFor(trx, sends);
    const merged = await this.mergedFor(trx, sends);
    return sends.flatMap(({ send, writer }): Composed[] => {
      const { userId, body, guess, script } = send.request;
      const mediaId = mediaIdOf(body.content);
      let content: MessageContent;
      let quote: { seq: number; minSeq: number } | undefined;
      if (body.content.kind === 'text') {
        const { quote: ref, mentions, ...rest } = body.content;
        const allowed = mentions?.filter((id) => !blocks.has(`${id}\n${userId}`));
        content = allowed?.length ? { ...rest, mentions: allowed } : rest;
        if (ref) quote = { seq: ref.seq, minSeq: writer.minSeq };
      } else if (body.content.kind === 'merged') {
        const record = merged.get(send)!;
        if (record instanceof AppError) {
          send.outcome = { ok: false, error: record };
          return [];
        }
        content = record;
      } else if (body.content.kind === 'card') {
        const user = cards.get(body.content.user.id);
        if (!user) {
          send.outcome = { ok: false, error: new AppError('USER_NOT_FOUND') };
          return [];
        }
        content = { ...body.content, user };
      } else if (mediaId !== null) {
        // Written from what was stored, as its sender may send it (theirs, or forwarded).
        const stored = media.get(`${userId}\n${mediaId}`);
        // A favourite sticker is a stored photo.
        const kind = body.content.kind === 'face' ? 'image' : body.content.kind;
        if (!stored || stored.kind !== kind) {
          send.outcome = { ok: false, error: new AppError('MEDIA_NOT_FOUND') };
          return [];
        }
        const forwarded = 'forwarded' in body.content && body.content.forwarded;
        const written: MessageContent =
          stored.kind === 'image' && body.content.kind === 'face'
            ? { kind: 'face', image: stored.image }
            : stored;
        content = { ...written, ...(forwarded ? { forwarded } : {}) };
      } else {
        content = body.content;
      }
      // Only a text has a language (a guess is made for texts alone).
      const lang = guess ? languageOf(guess, languages.tongues.get(userId) ?? null, script) : null;
      const entry = {
        senderId: userId,
        readSeq: writer.readSeq,
        clientMsgId: body.clientMsgId,
        content,
        lang,
        ...(quote ? { quote } : {}),
      };
      return [{ send, conversationId: body.conversationId, entry }];
    });
  }

  /**
   * The chat history records of the batch's merged forwards, written from the stored
   * messages their senders can see (and the senders' names now); or why not.
   */
  private async mergedFor(
    trx: Db,
    sends: readonly Authorized[],
  ): Promise<Map<Send, MergedContent | AppError>> {
    const records = new Map<Send, MergedContent | AppError>();
    const repo = this.deps.repo.in(trx);
    const now = this.deps.clock.now();
    for (const { send } of sends) {
      const { userId, body } = send.request;
      if (body.content.kind !== 'merged') continue;
      const { conversationId, seqs } = body.content.source;
      const member = await repo.findMember(conversationId, userId);
      if (!member) {
        records.set(send, new AppError('CONVERSATION_NOT_FOUND'));
        continue;
      }
      const rows = await repo.visibleAt(userId, conversationId, Number(member.min_seq), seqs, now);
      const sent = rows.flatMap((row) => {
        const content = JSON.parse(row.content) as MessageContent;
        return isSentContent(content) ? [{ row, content }] : [];
      });
      if (sent.length === 0) {
        records.set(send, new AppError('MESSAGE_NOT_FOUND'));
        continue;
      }
      // A record forwarded alone goes on as it is, not inside another.
      const lone = sent.length === 1 ? sent[0]!.content : null;
      if (lone?.kind === 'merged') {
        records.set(send, lone);
        continue;
      }
      const items = sent.map(({ row, content }) => ({ row, content: asItemContent(content) }));
      records.set(
        send,
        items.some(({ content }) => content === null)
          ? new AppError('MERGED_TOO_DEEP', { max: MERGED_DEPTH_MAX })
          : {
              kind: 'merged',
              items: await this.named(
                trx,
                items.map(({ row, content }) => ({ row, content: content! })),
              ),
            },
      );
    }
    return records;
  }

  /** Items of a record with their senders' names as they are now. */
  private async named(
    trx: Db,
    items: readonly { row: MessageRow; content: MergedItem['content'] }[],
  ): Promise<MergedItem[]> {
    const cards = await this.deps.contacts.cards(
      [...new Set(items.map(({ row }) => row.sender_id))],
      trx,
    );
    return items.map(({ row, content }) => ({
      senderId: row.sender_id,
      senderName: cards.get(row.sender_id)?.nickname ?? '',
      createdAt: Number(row.created_at),
      content,
    }));
  }

  /** The stored media the batch's media sends name, keyed by `sender\nmedia id`. */
  private async mediaFor(
    trx: Db,
    sends: readonly Authorized[],
  ): Promise<Map<string, UploadedMedia>> {
    const wanted = new Map<string, string[]>();
    for (const { send } of sends) {
      const { userId, body } = send.request;
      const id = mediaIdOf(body.content);
      if (id !== null) wanted.set(userId, [...(wanted.get(userId) ?? []), id]);
    }
    const found = new Map<string, UploadedMedia>();
    for (const [userId, ids] of wanted) {
      for (const [id, media] of await this.deps.media.forSend(userId, ids, trx)) {
        found.set(`${userId}\n${id}`, media);
      }
    }
    return found;
  }
}

/**
 * What a record keeps of a message: a reply without its quote, no forwarded mark; null
 * for a record as deep as records go, which no record may hold.
 */
function asItemContent(content: SentContent): MergedItem['content'] | null {
  if (content.kind === 'text') {
    const { quote: _quote, forwarded: _forwarded, ...rest } = content;
    return rest;
  }
  if (content.kind === 'merged') {
    // Its type allows MERGED_DEPTH_MAX levels; one level less fits in an item.
    return mergedDepth(content) < MERGED_DEPTH_MAX
      ? (content as Extract<MergedItem['content'], { kind: 'merged' }>)
      : null;
  }
  const { forwarded: _forwarded, ...rest } = content;
  return rest;
}

/** How many records deep a record goes (1: it holds no record). */
function mergedDepth(record: MergedContent): number {
  let deepest = 0;
  for (const { content } of record.items) {
    if (content.kind === 'merged') deepest = Math.max(deepest, mergedDepth(content));
  }
  return 1 + deepest;
}
