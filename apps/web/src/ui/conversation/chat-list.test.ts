import type { ConversationView } from '@teltlk/im-sdk';
import type { Message } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { catalogText } from '../../i18n/catalogs';
import { en_US, type Catalog } from '../../i18n/en_US';
import { zh_CN } from '../../i18n/zh_CN';
import { zh_TW } from '../../i18n/zh_TW';
import { callRecordPreview } from './call-record';
import { hasUnreadMention, orderConversations, previewOf } from './chat-list';

function lastMessage(patch: Partial<Message>): Message {
  return {
    id: 'm1',
    conversationId: 'si_a_b',
    seq: 5,
    senderId: 'b',
    clientMsgId: 'client-0001',
    content: { kind: 'text', text: 'hello' },
    createdAt: 1000,
    revokedAt: null,
    burnAt: null,
    lang: null,
    editedAt: null,
    ...patch,
  };
}

function conversation(id: string, patch: Partial<ConversationView> = {}): ConversationView {
  return {
    id,
    kind: 'single',
    peer: null,
    maxSeq: 5,
    readSeq: 5,
    minSeq: 0,
    peerReadSeq: 0,
    group: null,
    mentionSeq: 0,
    pinned: false,
    muted: false,
    hidden: false,
    burnSeconds: 0,
    translate: true,
    translateTo: null,
    lastMessage: null,
    updatedAt: 0,
    unread: 0,
    draft: '',
    ...patch,
  };
}

describe('orderConversations', () => {
  it('puts pinned first, then the latest activity, and leaves hidden ones out', () => {
    const list = orderConversations([
      conversation('old', { updatedAt: 10 }),
      conversation('hidden', { updatedAt: 99, hidden: true }),
      conversation('new', { lastMessage: lastMessage({ createdAt: 50 }) }),
      conversation('pinned', { pinned: true, updatedAt: 1 }),
      conversation('touched', { updatedAt: 40 }),
    ]);
    expect(list.map((item) => item.id)).toEqual(['pinned', 'new', 'touched', 'old']);
  });
});

describe('previewOf', () => {
  it('shows the draft before the last message', () => {
    const item = conversation('c', { draft: 'half\nwritten', lastMessage: lastMessage({}) });
    expect(previewOf(item, 'a')).toEqual({ kind: 'draft', text: 'half written' });
  });

  it('shows text, forwarded text, revocations and burn changes', () => {
    expect(previewOf(conversation('c', { lastMessage: lastMessage({}) }), 'a')).toEqual({
      kind: 'text',
      text: 'hello',
      forwarded: false,
      senderId: null,
    });
    expect(
      previewOf(
        conversation('c', {
          lastMessage: lastMessage({ content: { kind: 'text', text: 'x', forwarded: true } }),
        }),
        'a',
      ),
    ).toMatchObject({ forwarded: true });
    expect(
      previewOf(
        conversation('c', {
          lastMessage: lastMessage({ senderId: 'a', content: { kind: 'revoke', targetSeq: 4 } }),
        }),
        'a',
      ),
    ).toEqual({ kind: 'revoked', self: true });
    expect(
      previewOf(
        conversation('c', {
          lastMessage: lastMessage({ content: { kind: 'revoked' }, revokedAt: 2 }),
        }),
        'a',
      ),
    ).toEqual({ kind: 'revoked', self: false });
    expect(
      previewOf(
        conversation('c', {
          lastMessage: lastMessage({ content: { kind: 'edit', targetSeq: 4, text: 'new  words' } }),
        }),
        'a',
      ),
    ).toEqual({ kind: 'text', text: 'new words', forwarded: false, senderId: null });
    expect(
      previewOf(
        conversation('c', { lastMessage: lastMessage({ content: { kind: 'burn', seconds: 60 } }) }),
        'a',
      ),
    ).toEqual({ kind: 'burn', seconds: 60 });
  });

  it("names the sender of others' messages in groups, and shows system notices", () => {
    const group = { id: 'g1', name: 'Pioneers', avatarUrl: null, memberCount: 3 };
    const fromOther = lastMessage({ conversationId: 'sg_g1', senderId: 'b' });
    expect(
      previewOf(conversation('sg_g1', { kind: 'group', group, lastMessage: fromOther }), 'a'),
    ).toMatchObject({ kind: 'text', senderId: 'b' });
    const own = lastMessage({ conversationId: 'sg_g1', senderId: 'a' });
    expect(
      previewOf(conversation('sg_g1', { kind: 'group', group, lastMessage: own }), 'a'),
    ).toMatchObject({ kind: 'text', senderId: null });
    const system = lastMessage({
      conversationId: 'sg_g1',
      content: { kind: 'system', event: 'joined', actorId: 'c', targetIds: [] },
    });
    expect(
      previewOf(conversation('sg_g1', { kind: 'group', group, lastMessage: system }), 'a'),
    ).toEqual({ kind: 'system', content: system.content });
  });

  it('labels a shared location by its place name, with its sender in groups', () => {
    const place = { kind: 'location', latitude: 1, longitude: 2, name: 'Cafe\nCentral' } as const;
    expect(
      previewOf(conversation('si_a_b', { lastMessage: lastMessage({ content: place }) }), 'a'),
    ).toEqual({ kind: 'location', name: 'Cafe Central', forwarded: false, senderId: null });
    const group = conversation('sg_g1', {
      kind: 'group',
      lastMessage: lastMessage({ content: { ...place, forwarded: true } }),
    });
    expect(previewOf(group, 'a')).toEqual({
      kind: 'location',
      name: 'Cafe Central',
      forwarded: true,
      senderId: 'b',
    });
  });

  it('labels a contact card by the name on it', () => {
    const user = {
      id: 'c',
      teltlkId: 'Cat12345',
      nickname: 'Cat',
      avatarUrl: null,
      country: 'FR',
      motherTongue: 'fr',
      official: false,
    };
    const last = lastMessage({ content: { kind: 'card', user } });
    expect(previewOf(conversation('si_a_b', { lastMessage: last }), 'a')).toEqual({
      kind: 'card',
      name: 'Cat',
      forwarded: false,
      senderId: null,
    });
  });

  it('labels money by its note or greeting, and an NFT by its name', () => {
    const preview = (content: Parameters<typeof lastMessage>[0]['content']) =>
      previewOf(conversation('si_a_b', { lastMessage: lastMessage({ content }) }), 'a');
    expect(
      preview({
        kind: 'transfer',
        transferId: 't',
        currency: 'PI',
        amount: 1,
        note: ' Lunch\n',
        toId: 'b',
      }),
    ).toMatchObject({ kind: 'transfer', name: 'Lunch' });
    expect(
      preview({
        kind: 'envelope',
        envelopeId: 'e',
        total: 5,
        count: 2,
        split: 'equal',
        greeting: 'Happy new year',
        currency: 'PI',
      }),
    ).toMatchObject({ kind: 'envelope', name: 'Happy new year' });
    expect(
      preview({
        kind: 'nft',
        itemId: 'i',
        name: 'Early  bird',
        collection: 'Pioneers',
        imageUrl: '/files/nft/i.webp',
        toId: 'b',
      }),
    ).toEqual({ kind: 'nft', name: 'Early bird', forwarded: false, senderId: null });
  });

  it('shows a call record from the reader’s side, in the reader’s language', () => {
    const call = (patch: Partial<Message> = {}, reader = 'a') => {
      const preview = previewOf(
        conversation('si_a_b', {
          lastMessage: lastMessage({
            content: {
              kind: 'call',
              callId: 'c1',
              media: 'video',
              outcome: 'missed',
              durationSeconds: 0,
              group: false,
            },
            ...patch,
          }),
        }),
        reader,
      );
      if (preview.kind !== 'call') throw new Error(`not a call preview: ${preview.kind}`);
      return (catalog: Catalog) =>
        callRecordPreview(preview.call, (key, params) => catalogText(catalog, key, params));
    };
    // Sent as the caller, b: a was called and missed it; b called and had no answer.
    expect(call()(en_US)).toBe('[Missed video call]');
    expect(call({}, 'b')(en_US)).toBe('[Video call] No answer');
    expect(call()(zh_CN)).toBe('[未接视频通话]');
    expect(call({}, 'b')(zh_TW)).toBe('[視訊通話] 對方未接聽');
    const completed = {
      kind: 'call',
      callId: 'c2',
      media: 'audio',
      outcome: 'completed',
      durationSeconds: 201,
      group: false,
    } as const;
    expect(call({ content: completed })(en_US)).toBe('[Voice call] 3:21');
    expect(call({ content: completed })(zh_CN)).toBe('[语音通话] 3:21');
    // In a group no sender is named before it: the record is the call's, not words its caller wrote.
    const group = conversation('sg_g1', {
      kind: 'group',
      lastMessage: lastMessage({ content: { ...completed, group: true } }),
    });
    expect(previewOf(group, 'a')).toEqual({
      kind: 'call',
      call: { media: 'audio', group: true, status: 'lasted', duration: '3:21' },
    });
  });

  it('is empty with no message or after the history was cleared', () => {
    expect(previewOf(conversation('c'), 'a')).toEqual({ kind: 'empty' });
    expect(
      previewOf(conversation('c', { minSeq: 5, lastMessage: lastMessage({ seq: 5 }) }), 'a'),
    ).toEqual({ kind: 'empty' });
  });
});

describe('hasUnreadMention', () => {
  it('is set while a mention lies above the read seq', () => {
    expect(hasUnreadMention(conversation('sg_g1', { mentionSeq: 6, readSeq: 5 }))).toBe(true);
    expect(hasUnreadMention(conversation('sg_g1', { mentionSeq: 5, readSeq: 5 }))).toBe(false);
    expect(hasUnreadMention(conversation('sg_g1', { mentionSeq: 0, readSeq: 0 }))).toBe(false);
  });
});
