import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { isShown, newStoredConversation, toStored } from './reducers.js';
import { LocalStore, type StoredMessage } from './store.js';
import { CONV, ME, serverConversation, serverMessage, serverTranslation } from './test-fixtures.js';

const stores: LocalStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

async function open(indexedDB = new IDBFactory(), userId = ME): Promise<LocalStore> {
  const store = new LocalStore(userId, { indexedDB, IDBKeyRange });
  await store.open();
  stores.push(store);
  return store;
}

function pending(clientMsgId: string, order: number): StoredMessage {
  return {
    id: null,
    conversationId: CONV,
    seq: null,
    clientMsgId,
    senderId: ME,
    content: { kind: 'text', text: clientMsgId },
    createdAt: order,
    revokedAt: null,
    burnAt: null,
    lang: null,
    status: 'sending',
    pending: CONV,
    order,
  };
}

describe('LocalStore', () => {
  it("removes one user's database and leaves the others", async () => {
    const indexedDB = new IDBFactory();
    const ada = await open(indexedDB, 'ada');
    await ada.setMeta('lastEventSeq', 7);
    const bob = await open(indexedDB, 'bob');
    await bob.setMeta('lastEventSeq', 3);
    ada.close();
    await LocalStore.remove('ada', { indexedDB, IDBKeyRange });
    expect(await (await open(indexedDB, 'ada')).getMeta('lastEventSeq')).toBe(0);
    expect(await bob.getMeta('lastEventSeq')).toBe(3);
  });

  it('keeps one database per user', async () => {
    const indexedDB = new IDBFactory();
    const ada = await open(indexedDB, 'ada');
    const bob = await open(indexedDB, 'bob');
    await ada.setMeta('lastEventSeq', 7);
    expect(ada.name).toBe('teltlk-ada');
    expect(await ada.getMeta('lastEventSeq')).toBe(7);
    expect(await bob.getMeta('lastEventSeq')).toBe(0);
  });

  it('reads the newest visible page by seq, and pending sends in send order', async () => {
    const store = await open();
    await store.messages.bulkPut([
      ...[1, 2, 3, 4, 5].map((seq) => toStored(serverMessage(seq))),
      { ...toStored(serverMessage(6)), hidden: 1 },
      toStored(serverMessage(7, { content: { kind: 'revoke', targetSeq: 2 } })),
      toStored(serverMessage(1, { conversationId: 'si_ada_eve', clientMsgId: 'other-1' })),
      pending('second-1', 20),
      pending('first-01', 10),
    ]);
    const newest = await store.newest(CONV, 1, 3, (row) => isShown(row, 0));
    expect(newest.map((row) => row.seq)).toEqual([5, 4, 3]);
    expect((await store.pendingOf(CONV)).map((row) => row.clientMsgId)).toEqual([
      'first-01',
      'second-1',
    ]);
    expect((await store.bySeqs(CONV, [2, 9])).map((row) => row.seq)).toEqual([2]);
  });

  it('deletes cleared and burnt rows but never pending sends', async () => {
    const store = await open();
    await store.messages.bulkPut([
      ...[1, 2, 3].map((seq) => toStored(serverMessage(seq))),
      toStored(serverMessage(4, { burnAt: 50 })),
      toStored(serverMessage(5, { burnAt: 500 })),
      pending('pending1', 1),
    ]);
    expect(await store.deleteUpTo(CONV, 2)).toBe(2);
    expect(await store.deleteBurnt(100)).toBe(1);
    const left = await store.messages.toArray();
    expect(left.map((row) => row.seq).sort()).toEqual([3, 5, null].sort());
  });

  it('survives a reopen', async () => {
    const indexedDB = new IDBFactory();
    const first = await open(indexedDB);
    await first.outbox.add({
      clientMsgId: 'queued-1',
      conversationId: CONV,
      content: { kind: 'text', text: 'x' },
      createdAt: 1,
    });
    await first.drafts.put({ conversationId: CONV, text: 'draft' });
    first.close();
    const second = await open(indexedDB);
    expect(await second.outbox.toArray()).toMatchObject([{ clientMsgId: 'queued-1' }]);
    expect(await second.drafts.get(CONV)).toEqual({ conversationId: CONV, text: 'draft' });
  });

  it('upgrades a cache from before translation, keeping its rows', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie(`teltlk-${ME}`, { indexedDB, IDBKeyRange });
    old.version(1).stores({
      conversations: 'id',
      messages: '[senderId+clientMsgId], [conversationId+seq], clientMsgId, pending, burnAt',
      outbox: '++id, &clientMsgId',
      drafts: 'conversationId',
      meta: 'key',
    });
    const {
      translate: _translate,
      translateTo: _translateTo,
      ...conversation
    } = newStoredConversation(serverConversation({ maxSeq: 1 }));
    const { lang: _lang, ...message } = toStored(serverMessage(1));
    await old.table('conversations').put(conversation);
    await old.table('messages').put(message);
    old.close();

    const store = await open(indexedDB);
    expect(await store.conversations.get(CONV)).toMatchObject({
      id: CONV,
      maxSeq: 1,
      translate: true,
      translateTo: null,
    });
    expect(await store.bySeqs(CONV, [1])).toMatchObject([{ seq: 1, lang: null }]);
    expect(await store.translations.count()).toBe(0);
  });

  it('drops translations with their messages: cleared history and burnt', async () => {
    const store = await open();
    await store.messages.bulkPut([
      toStored(serverMessage(1, { lang: 'fr' })),
      toStored(serverMessage(2, { lang: 'fr', burnAt: 50 })),
      toStored(serverMessage(3, { lang: 'fr' })),
    ]);
    await store.translations.bulkPut([1, 2, 3].map((seq) => serverTranslation(seq)));
    expect((await store.translationsOf(CONV, 'en', [1, 2, 3])).map((t) => t.seq)).toEqual([
      1, 2, 3,
    ]);
    await store.deleteBurnt(100);
    await store.deleteUpTo(CONV, 1);
    expect((await store.translationsOf(CONV, 'en', [1, 2, 3])).map((t) => t.seq)).toEqual([3]);
    expect(await store.translationsOf(CONV, 'de', [3])).toEqual([]);
  });
});
