import type { Message, ServerFrame } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { serializeFrame } from './frames.js';

const message: Message = {
  id: 'm1',
  conversationId: 'si_a_b',
  seq: 3,
  senderId: 'a',
  clientMsgId: 'c"1\u2028',
  content: { kind: 'text', text: 'héllo "there" 你好\n' },
  lang: 'en',
  createdAt: 1_736_942_400_123,
  revokedAt: null,
  burnAt: null,
  editedAt: null,
};

describe('serializeFrame', () => {
  it.each<ServerFrame>([
    { t: 'message', message },
    { t: 'ack', rid: 'r"\\1', message },
    { t: 'pong', now: 5 },
  ])('writes what JSON.stringify writes for $t', (frame) => {
    expect(serializeFrame(frame)).toBe(JSON.stringify(frame));
    // Second time from the cache of the message's JSON.
    expect(serializeFrame(frame)).toBe(JSON.stringify(frame));
  });
});
