import { isQuoteAvailable, type Message, type ServerFrame } from '@teltlk/protocol';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/*
 * Who may see a message, the one rule: a member of its conversation, after the point their
 * history starts (their join, or where they cleared it), and no notice about a message
 * from before it; not burnt; not deleted for them; and, for what shows a message's
 * content (its media, search, forwards), not recalled. Pages, the chat list, search,
 * pushes and media all ask it: in SQL here (visibleSql, seenBy, seenByAnyone), and for
 * messages in hand below (messageFor, frameFor).
 */

/** Whom the SQL rule asks about: a user, and where their history starts. */
export interface Viewer {
  /** The user, or a column holding them. */
  userId: string | Expression<string>;
  /**
   * The seq their history starts after, or a column holding it; left out, it is read from
   * their member row (none: they see nothing).
   */
  minSeq?: number | Expression<number>;
}

/**
 * Whether the viewer may see the row of messages under alias `m` at time `now`; with
 * `content`, only a message whose content is still there (not recalled).
 */
export function visibleSql(
  m: string,
  viewer: Viewer,
  now: number,
  what: 'any' | 'content' = 'any',
): RawBuilder<SqlBool> {
  const column = (name: string) => sql.ref(`${m}.${name}`);
  // A scalar look-up rather than EXISTS: it stays a check of each candidate by the member
  // key, where a semi-join would let a planner walk all of a user's conversations first.
  const minSeq =
    viewer.minSeq ??
    sql<number>`(select c.min_seq from conversation_members c
      where c.conversation_id = ${column('conversation_id')} and c.user_id = ${viewer.userId})`;
  return sql<SqlBool>`${column('seq')} > ${minSeq}
    and (${column('target_seq')} is null or ${column('target_seq')} > ${minSeq})
    and (${column('burn_at')} is null or ${column('burn_at')} > ${now})
    ${what === 'content' ? sql`and ${column('revoked_at')} is null` : sql``}
    and not exists (
      select 1 from message_hides h
      where h.user_id = ${viewer.userId} and h.conversation_id = ${column('conversation_id')}
        and h.seq = ${column('seq')})`;
}

/** Where a message is, as columns of the query that asks about it. */
export interface MessageAt {
  conversationId: Expression<string>;
  seq: Expression<number>;
}

/**
 * Whether `userId` may see the content of the message at `at` (visibleSql): what a
 * message carries, such as its media, is theirs to see only then.
 */
export function seenBy(userId: string, now: number, at: MessageAt): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from messages v
    where v.conversation_id = ${at.conversationId} and v.seq = ${at.seq}
      and ${visibleSql('v', { userId }, now, 'content')})`;
}

/** Whether any member may still see the content of the message at `at` (visibleSql). */
export function seenByAnyone(now: number, at: MessageAt): RawBuilder<SqlBool> {
  const member: Viewer = { userId: sql.ref('vm.user_id'), minSeq: sql.ref('vm.min_seq') };
  return sql<SqlBool>`exists (select 1 from messages v
    inner join conversation_members vm on vm.conversation_id = v.conversation_id
    where v.conversation_id = ${at.conversationId} and v.seq = ${at.seq}
      and ${visibleSql('v', member, now, 'content')})`;
}

/** A member a frame may go to, with the point their history starts after. */
export interface Reader {
  userId: string;
  /** Their join point, or where they cleared the history: nothing at or before it is theirs. */
  minSeq: number;
  /**
   * The language they read the conversation in (their choice for it, else their mother
   * tongue); null: translation is off for them there.
   */
  lang: string | null;
}

/**
 * What a member whose history starts after `minSeq` may be given of a message: nothing
 * at or before that point, no notice about a message there (a revoke of a message sent
 * before they joined), and a quote of one only as unavailable. Pulls, pushes and the
 * chat list all go through here, so no path gives a member more than another.
 */
export function messageFor(message: Message, minSeq: number): Message | null {
  if (message.seq <= minSeq) return null;
  const { content } = message;
  if ((content.kind === 'revoke' || content.kind === 'edit') && content.targetSeq <= minSeq) {
    return null;
  }
  if (content.kind === 'text' && content.quote && content.quote.seq <= minSeq) {
    return withoutQuote(message);
  }
  return message;
}

/** Messages with their quote made unavailable, one per message, so its readers share it. */
const unquoted = new WeakMap<Message, Message>();

/** The message with its quote shown as unavailable (the same object for every reader). */
export function withoutQuote(message: Message): Message {
  const { content } = message;
  if (content.kind !== 'text' || !content.quote || !isQuoteAvailable(content.quote)) {
    return message;
  }
  let made = unquoted.get(message);
  if (!made) {
    made = {
      ...message,
      content: { ...content, quote: { seq: content.quote.seq, unavailable: true } },
    };
    unquoted.set(message, made);
  }
  return made;
}

/** Frames of messages made for some readers (messageFor), one per message. */
const variants = new WeakMap<Message, ServerFrame>();

/**
 * A frame as a member whose history starts after `minSeq` may have it, or null: readers
 * given the same view get the same object, serialized once. Frames about no message
 * (typing, events) pass as they are.
 */
export function frameFor(frame: ServerFrame, minSeq: number): ServerFrame | null {
  switch (frame.t) {
    case 'message': {
      const message = messageFor(frame.message, minSeq);
      if (message === null) return null;
      if (message === frame.message) return frame;
      let made = variants.get(message);
      if (!made) {
        made = { t: 'message', message };
        variants.set(message, made);
      }
      return made;
    }
    case 'translation':
      return frame.translation.seq > minSeq ? frame : null;
    default:
      return frame;
  }
}

/**
 * Whether a frame of a new message may differ by reader: it is about an older message
 * (a revoke or edit notice, a reply's quote), so a member whose history starts later must not
 * get it as it is.
 */
export function reachesBack(frame: ServerFrame): boolean {
  if (frame.t !== 'message') return false;
  const { content } = frame.message;
  return (
    content.kind === 'revoke' ||
    content.kind === 'edit' ||
    (content.kind === 'text' && content.quote !== undefined && isQuoteAvailable(content.quote))
  );
}
