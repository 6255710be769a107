import { describe, expect, it } from 'vitest';
import {
  applyMessages,
  applyRead,
  chatList,
  classifySeq,
  isShown,
  markReadLocally,
  mergeConversation,
  newStoredConversation,
  sendableOf,
  shownContent,
  toStored,
  withoutQuote,
} from './reducers.js';
import type { StoredConversation, StoredMessage } from './store.js';
import { CONV, ME, PEER, serverConversation, serverMessage } from './test-fixtures.js';

function stored(patch: Partial<StoredConversation> = {}): StoredConversation {
  return { ...newStoredConversation(serverConversation()), ...patch };
}

const options = { userId: ME, extendCoverage: true };

describe('mergeConversation', () => {
  it('moves seqs forward only and takes member state from the newer copy', () => {
    const local = stored({
      maxSeq: 10,
      readSeq: 8,
      pinned: true,
      stateAt: 2_000,
      updatedAt: 2_000,
    });
    const stale = serverConversation({ maxSeq: 7, readSeq: 5, pinned: false, updatedAt: 1_500 });
    const merged = mergeConversation(local, stale);
    expect(merged).toMatchObject({ maxSeq: 10, readSeq: 8, pinned: true, stateAt: 2_000 });

    const newer = serverConversation({ maxSeq: 12, readSeq: 12, muted: true, updatedAt: 3_000 });
    expect(mergeConversation(local, newer)).toMatchObject({
      maxSeq: 12,
      readSeq: 12,
      pinned: false,
      muted: true,
      stateAt: 3_000,
    });
  });

  it('keeps a hidden conversation visible when a newer message is known locally', () => {
    const local = stored({ maxSeq: 6, stateAt: 1_000 });
    const hiddenAt5 = serverConversation({ maxSeq: 5, hidden: true, updatedAt: 2_000 });
    expect(mergeConversation(local, hiddenAt5).hidden).toBe(false);
    const hiddenAt6 = serverConversation({ maxSeq: 6, hidden: true, updatedAt: 2_000 });
    expect(mergeConversation(local, hiddenAt6).hidden).toBe(true);
  });

  it('takes the burn setting only from a copy that has seen the newest burn notice', () => {
    const local = stored({ maxSeq: 9, burnSeconds: 30, burnSeq: 9 });
    expect(
      mergeConversation(local, serverConversation({ maxSeq: 8, updatedAt: 5_000 })).burnSeconds,
    ).toBe(30);
    expect(
      mergeConversation(local, serverConversation({ maxSeq: 9, burnSeconds: 0, updatedAt: 5_000 })),
    ).toMatchObject({ burnSeconds: 0, burnSeq: 9 });
  });

  it('clears the local coverage and last message below a raised minSeq', () => {
    const local = stored({
      maxSeq: 20,
      coveredFrom: 1,
      pulledSeq: 20,
      lastMessage: serverMessage(20),
    });
    const cleared = serverConversation({
      maxSeq: 20,
      minSeq: 20,
      lastMessage: null,
      updatedAt: 9_000,
    });
    expect(mergeConversation(local, cleared)).toMatchObject({
      minSeq: 20,
      coveredFrom: 21,
      pulledSeq: 20,
      historyComplete: true,
      lastMessage: null,
    });
  });

  it('counts nothing up to our own last message as unread', () => {
    const mine = serverConversation({
      maxSeq: 4,
      readSeq: 1,
      lastMessage: serverMessage(4, { senderId: ME }),
    });
    expect(mergeConversation(undefined, mine, ME).readSeq).toBe(4);
    const theirs = serverConversation({ maxSeq: 4, readSeq: 1, lastMessage: serverMessage(4) });
    expect(mergeConversation(undefined, theirs, ME).readSeq).toBe(1);
  });

  it('takes the group brief and the highest mention seq from the server', () => {
    const group = { id: 'g1', name: 'Renamed', avatarUrl: null, memberCount: 4 };
    const local = stored({ mentionSeq: 7 });
    const merged = mergeConversation(
      local,
      serverConversation({ group, mentionSeq: 5, updatedAt: 9_000 }),
    );
    expect(merged).toMatchObject({ group, mentionSeq: 7 });
  });

  it('drops a pending read once the server has it', () => {
    const local = stored({ maxSeq: 5, readSeq: 5, pendingRead: 5 });
    expect(
      mergeConversation(local, serverConversation({ maxSeq: 5, readSeq: 3 })).pendingRead,
    ).toBe(5);
    expect(
      mergeConversation(local, serverConversation({ maxSeq: 5, readSeq: 5 })).pendingRead,
    ).toBeNull();
  });
});

describe('applyMessages', () => {
  it('raises the mention seq for a message that mentions us, not for our own', () => {
    const conversation = stored({ maxSeq: 3, lastMessage: serverMessage(3) });
    const mention = serverMessage(4, {
      content: { kind: 'text', text: '@me hi', mentions: [ME] },
    });
    const everyone = serverMessage(5, {
      senderId: ME,
      content: { kind: 'text', text: '@all', mentionAll: true },
    });
    const plain = serverMessage(6);
    const result = applyMessages(conversation, [], [mention, everyone, plain], options);
    expect(result.conversation?.mentionSeq).toBe(4);
  });

  it('applies the next seq, extends the coverage and announces it once', () => {
    const conversation = stored({
      maxSeq: 3,
      coveredFrom: 1,
      pulledSeq: 3,
      lastMessage: serverMessage(3),
    });
    const first = applyMessages(conversation, [], [serverMessage(4)], options);
    expect(first.conversation).toMatchObject({ maxSeq: 4, pulledSeq: 4, lastMessage: { seq: 4 } });
    expect(first.fresh.map((row) => row.seq)).toEqual([4]);
    expect(first.gapAfter).toBeNull();

    const again = applyMessages(first.conversation, first.puts, [serverMessage(4)], options);
    expect(again.puts).toEqual([]);
    expect(again.fresh).toEqual([]);
    expect(again.conversation).toEqual(first.conversation);
  });

  it('reports a gap and does not extend the coverage over it', () => {
    const conversation = stored({ maxSeq: 3, coveredFrom: 1, pulledSeq: 3 });
    const batch = applyMessages(conversation, [], [serverMessage(6)], options);
    expect(batch.gapAfter).toBe(3);
    expect(batch.conversation).toMatchObject({ maxSeq: 6, pulledSeq: 3 });
    expect(batch.puts.map((row) => row.seq)).toEqual([6]);
  });

  it('starts a complete coverage with the first message of an empty conversation', () => {
    const batch = applyMessages(stored(), [], [serverMessage(1)], options);
    expect(batch.conversation).toMatchObject({
      coveredFrom: 1,
      pulledSeq: 1,
      historyComplete: true,
    });
  });

  it('replaces our pending send by the acknowledged copy without announcing it', () => {
    const pending: StoredMessage = {
      id: null,
      conversationId: CONV,
      seq: null,
      clientMsgId: 'mine-0001',
      senderId: ME,
      content: { kind: 'text', text: 'hi' },
      createdAt: 5,
      revokedAt: null,
      burnAt: null,
      lang: null,
      status: 'sending',
      pending: CONV,
      order: 7,
    };
    const conversation = stored({ maxSeq: 2, readSeq: 1, coveredFrom: 1, pulledSeq: 2 });
    const ack = serverMessage(3, { senderId: ME, clientMsgId: 'mine-0001' });
    const batch = applyMessages(conversation, [pending], [ack], options);
    expect(batch.fresh).toEqual([]);
    expect(batch.puts).toEqual([{ ...toStored(ack), order: 7 }]);
    expect(batch.puts[0]).not.toHaveProperty('pending');
    // Sending means having read what came before.
    expect(batch.conversation).toMatchObject({ readSeq: 3, pulledSeq: 3 });
  });

  it('gives the target of an edit notice its new words, newest edit winning', () => {
    const target = toStored(serverMessage(2, { lang: 'en' }));
    const conversation = stored({ maxSeq: 2, coveredFrom: 1, pulledSeq: 2 });
    const notice = serverMessage(3, {
      content: { kind: 'edit', targetSeq: 2, text: 'nuevas palabras' },
      lang: 'es',
      createdAt: 2_000,
    });
    const batch = applyMessages(conversation, [target], [notice], options);
    expect(batch.edited).toEqual([2]);
    expect(batch.puts.find((row) => row.seq === 2)).toMatchObject({
      content: { kind: 'text', text: 'nuevas palabras' },
      lang: 'es',
      editedAt: 2_000,
    });
    // An older edit, pulled late, and a pull of the target as it was, change nothing.
    const edited = batch.puts.find((row) => row.seq === 2)!;
    const older = serverMessage(4, {
      content: { kind: 'edit', targetSeq: 2, text: 'older words' },
      createdAt: 1_500,
    });
    const stale = serverMessage(2, {
      content: { kind: 'text', text: 'older words' },
      editedAt: 1_500,
    });
    const late = applyMessages(batch.conversation, [edited], [stale, older], options);
    expect(late.edited).toEqual([]);
    // A pull of the target with newer words applies them.
    const newer = serverMessage(2, { content: { kind: 'text', text: 'newest' }, editedAt: 3_000 });
    const pulled = applyMessages(batch.conversation, [edited], [newer], options);
    expect(pulled.puts.find((row) => row.seq === 2)).toMatchObject({
      content: { text: 'newest' },
      editedAt: 3_000,
    });
    expect(isShown(toStored(notice), 0)).toBe(false);
  });

  it('marks the target of a revoke notice revoked, in the list too', () => {
    const target = toStored(serverMessage(2));
    const conversation = stored({
      maxSeq: 2,
      coveredFrom: 1,
      pulledSeq: 2,
      lastMessage: serverMessage(2),
    });
    const notice = serverMessage(3, {
      content: { kind: 'revoke', targetSeq: 2 },
      createdAt: 2_000,
    });
    const batch = applyMessages(conversation, [target], [notice], options);
    expect(batch.revoked).toEqual([2]);
    expect(batch.puts.find((row) => row.seq === 2)).toMatchObject({
      content: { kind: 'revoked' },
      revokedAt: 2_000,
    });
    expect(batch.conversation?.lastMessage).toMatchObject({ seq: 3 });
    // The same notice again changes nothing.
    const again = applyMessages(batch.conversation, batch.puts, [notice], options);
    expect(again.revoked).toEqual([]);
    expect(again.puts).toEqual([]);
  });

  it('applies a burn notice unless a newer one was applied', () => {
    const conversation = stored({
      maxSeq: 10,
      burnSeq: 10,
      burnSeconds: 60,
      coveredFrom: 5,
      pulledSeq: 10,
    });
    const old = serverMessage(4, { content: { kind: 'burn', seconds: 10 } });
    expect(
      applyMessages(conversation, [], [old], { userId: ME, extendCoverage: false }).conversation,
    ).toMatchObject({ burnSeconds: 60, maxSeq: 10 });
    const fresh = serverMessage(11, { content: { kind: 'burn', seconds: 0 } });
    expect(applyMessages(conversation, [], [fresh], options).conversation).toMatchObject({
      burnSeconds: 0,
      burnSeq: 11,
    });
  });

  it('does not announce history pulled on opening a conversation', () => {
    const conversation = stored({ maxSeq: 30 });
    const batch = applyMessages(conversation, [], [serverMessage(29), serverMessage(30)], {
      userId: ME,
      extendCoverage: false,
    });
    expect(batch.fresh).toEqual([]);
    expect(batch.puts).toHaveLength(2);
  });

  it('brings a hidden conversation back with a new message, and ignores cleared seqs', () => {
    const conversation = stored({
      maxSeq: 5,
      minSeq: 5,
      hidden: true,
      coveredFrom: 6,
      pulledSeq: 5,
    });
    expect(applyMessages(conversation, [], [serverMessage(4)], options).puts).toEqual([]);
    expect(applyMessages(conversation, [], [serverMessage(6)], options).conversation).toMatchObject(
      {
        hidden: false,
        pulledSeq: 6,
      },
    );
  });

  it('keeps the hidden mark of a message pulled again', () => {
    const hidden: StoredMessage = { ...toStored(serverMessage(2)), hidden: 1 };
    const batch = applyMessages(stored({ maxSeq: 2 }), [hidden], [serverMessage(2)], options);
    expect(batch.puts).toEqual([]);
  });
});

describe('small reducers', () => {
  it('classifies pushed seqs', () => {
    expect(classifySeq(4, 3)).toBe('stale');
    expect(classifySeq(4, 4)).toBe('stale');
    expect(classifySeq(4, 5)).toBe('apply');
    expect(classifySeq(4, 7)).toBe('gap');
  });

  it('applies read marks of the peer and of our other devices, never backwards', () => {
    const conversation = stored({ maxSeq: 9, readSeq: 4, peerReadSeq: 3 });
    expect(applyRead(conversation, ME, PEER, 7).peerReadSeq).toBe(7);
    expect(applyRead(conversation, ME, PEER, 2)).toBe(conversation);
    expect(applyRead(conversation, ME, ME, 8).readSeq).toBe(8);
    expect(applyRead(conversation, ME, ME, 3)).toBe(conversation);
  });

  it('marks read locally with a pending read', () => {
    const conversation = stored({ maxSeq: 9, readSeq: 4 });
    expect(markReadLocally(conversation)).toMatchObject({ readSeq: 9, pendingRead: 9 });
    const read = stored({ maxSeq: 9, readSeq: 9 });
    expect(markReadLocally(read)).toBe(read);
  });

  it('leaves hidden, burnt and revoke notices out of the message list', () => {
    const row = toStored(serverMessage(1, { burnAt: 500 }));
    expect(isShown(row, 499)).toBe(true);
    expect(isShown(row, 500)).toBe(false);
    expect(isShown({ ...toStored(serverMessage(2)), hidden: 1 }, 0)).toBe(false);
    expect(
      isShown(toStored(serverMessage(3, { content: { kind: 'revoke', targetSeq: 1 } })), 0),
    ).toBe(false);
  });

  it('orders the chat list pinned first, then by activity, and counts unread of unmuted ones', () => {
    const a = stored({
      id: 'a',
      maxSeq: 5,
      readSeq: 2,
      lastMessage: serverMessage(5, { createdAt: 100 }),
    });
    const b = stored({ id: 'b', maxSeq: 3, readSeq: 0, muted: true, updatedAt: 300 });
    const c = stored({ id: 'c', pinned: true, updatedAt: 50 });
    const d = stored({ id: 'd', hidden: true, maxSeq: 9, updatedAt: 900 });
    const { conversations, totalUnread } = chatList([a, b, c, d], new Map([['a', 'draft']]), 0);
    expect(conversations.map((view) => view.id)).toEqual(['c', 'b', 'a']);
    expect(conversations[2]).toMatchObject({ unread: 3, draft: 'draft' });
    expect(conversations[2]).not.toHaveProperty('pulledSeq');
    expect(totalUnread).toBe(3);
  });
});

describe('replies', () => {
  const quoted = toStored(
    serverMessage(4, { senderId: PEER, content: { kind: 'text', text: ' See  you\nat six ' } }),
  );

  it('shows a reply at once with the quote of the local copy, unavailable without one', () => {
    const reply = { kind: 'text' as const, text: 'OK', quote: { seq: 4 } };
    expect(shownContent(reply, quoted, 0)).toEqual({
      kind: 'text',
      text: 'OK',
      quote: { seq: 4, senderId: PEER, text: 'See you at six' },
    });
    expect(shownContent(reply, undefined, 0)).toEqual({
      kind: 'text',
      text: 'OK',
      quote: { seq: 4, unavailable: true },
    });
    const revoked = { ...quoted, content: { kind: 'revoked' as const }, revokedAt: 1 };
    expect(shownContent(reply, revoked, 0)).toMatchObject({ quote: { unavailable: true } });
    expect(shownContent(reply, { ...quoted, burnAt: 5 }, 5)).toMatchObject({
      quote: { seq: 4, unavailable: true },
    });
    expect(shownContent({ kind: 'text', text: 'plain' }, undefined, 0)).toEqual({
      kind: 'text',
      text: 'plain',
    });
  });

  it('sends a stored reply again by the quoted seq only', () => {
    const shown = shownContent({ kind: 'text', text: 'OK', quote: { seq: 4 } }, quoted, 0);
    expect(sendableOf(shown)).toEqual({ kind: 'text', text: 'OK', quote: { seq: 4 } });
    expect(sendableOf(withoutQuote(shown))).toEqual({
      kind: 'text',
      text: 'OK',
      quote: { seq: 4 },
    });
    expect(withoutQuote(shown)).toEqual({
      kind: 'text',
      text: 'OK',
      quote: { seq: 4, unavailable: true },
    });
  });
});
