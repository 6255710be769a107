import { describe, expect, it } from 'vitest';
import { quoteSchema, type MessageContent } from './chat.js';
import { quotedPart } from './chat-rules.js';

const money: MessageContent[] = [
  {
    kind: 'transfer',
    transferId: 't1',
    currency: 'PI',
    amount: 5,
    note: 'For lunch',
    toId: 'u2',
  },
  {
    kind: 'envelope',
    envelopeId: 'e1',
    currency: 'PI',
    total: 10,
    count: 3,
    split: 'random',
    greeting: 'Happy new year',
  },
  {
    kind: 'nft',
    itemId: 'n1',
    name: 'Blue crane',
    collection: 'Birds',
    imageUrl: 'https://example.com/crane.png',
    toId: 'u2',
  },
];

describe('quotedPart', () => {
  it('quotes a transfer by its note, a red envelope by its greeting, an NFT by its name', () => {
    expect(money.map(quotedPart)).toEqual([
      { text: 'For lunch', kind: 'transfer' },
      { text: 'Happy new year', kind: 'envelope' },
      { text: 'Blue crane', kind: 'nft' },
    ]);
  });

  it('gives quotes the contract reads', () => {
    for (const content of money) {
      const part = quotedPart(content);
      expect(quoteSchema.safeParse({ seq: 1, senderId: 'u1', ...part }).success).toBe(true);
    }
  });

  it('quotes no call record and no notice', () => {
    const call: MessageContent = {
      kind: 'call',
      callId: 'c1',
      media: 'audio',
      outcome: 'cancelled',
      durationSeconds: 0,
      group: false,
    };
    expect(quotedPart(call)).toBeNull();
    expect(quotedPart({ kind: 'revoke', targetSeq: 1 })).toBeNull();
  });
});
