import { isQuoteAvailable, type Message, type ServerFrame } from '@teltlk/protocol';

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
