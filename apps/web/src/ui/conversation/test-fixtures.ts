import type { LocalMessage } from '@teltlk/im-sdk';
import type { Translation } from '@teltlk/protocol';

/** Builders for the chat screen's translation tests: `a` reads what `b` wrote in French. */

/** Message 4 of `si_a_b`: "bonjour" from `b`, detected as French. */
export function receivedText(patch: Partial<LocalMessage> = {}): LocalMessage {
  return {
    conversationId: 'si_a_b',
    seq: 4,
    clientMsgId: 'client-0004',
    senderId: 'b',
    content: { kind: 'text', text: 'bonjour' },
    createdAt: 1000,
    revokedAt: null,
    burnAt: null,
    lang: 'fr',
    status: 'sent',
    ...patch,
  };
}

/** The server's English translation of message 4, done. */
export function storedTranslation(patch: Partial<Translation> = {}): Translation {
  return {
    conversationId: 'si_a_b',
    seq: 4,
    messageId: 'm4',
    lang: 'en',
    from: 'fr',
    status: 'done',
    text: 'hello',
    error: null,
    at: 1,
    ...patch,
  };
}
