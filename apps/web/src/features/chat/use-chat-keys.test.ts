import type { LocalMessage } from '@teltlk/im-sdk';
import { EDIT_WINDOW_SECONDS } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { lastEditable } from './use-chat-keys';

const NOW = 1_000_000_000;

function message(seq: number | null, patch: Partial<LocalMessage> = {}): LocalMessage {
  return {
    conversationId: 'si_a_b',
    seq,
    clientMsgId: `client-${seq ?? 'x'}`,
    senderId: 'a',
    content: { kind: 'text', text: `text ${seq}` },
    createdAt: NOW - 1000,
    revokedAt: null,
    burnAt: null,
    lang: null,
    status: seq === null ? 'sending' : 'sent',
    ...patch,
  };
}

describe('↑ in the empty message box', () => {
  it('edits the newest text of one’s own, passing over what others sent since', () => {
    const messages = [message(1), message(2), message(3, { senderId: 'b' })];
    expect(lastEditable(messages, 'a', NOW)).toEqual({ seq: 2, text: 'text 2' });
  });

  it('passes over one’s messages that cannot be edited: not texts, unsent, revoked, forwarded', () => {
    const messages = [
      message(1),
      message(2, { content: { kind: 'text', text: 'passed on', forwarded: true } }),
      message(3, { revokedAt: NOW - 10 }),
      message(4, { content: { kind: 'face', sticker: 'smile' } }),
      message(null),
    ];
    expect(lastEditable(messages, 'a', NOW)).toEqual({ seq: 1, text: 'text 1' });
  });

  it('edits nothing once one’s texts are past the edit window, or when there are none', () => {
    const old = NOW - EDIT_WINDOW_SECONDS * 1000 - 1;
    expect(lastEditable([message(1, { createdAt: old })], 'a', NOW)).toBeNull();
    expect(lastEditable([message(1, { senderId: 'b' })], 'a', NOW)).toBeNull();
    expect(lastEditable([], 'a', NOW)).toBeNull();
  });
});
