import { IDBKeyRange } from 'fake-indexeddb';
import type { Conversation, Message, MessageContent, Translation } from '@teltlk/protocol';
import { ApiClient } from '@teltlk/client';
import { ImEngine, type EngineOptions } from './engine.js';
import type { FakeServer } from './fake-server.js';
import { FakeWebSocket } from './fake-socket.js';
import type { ConversationHandle, EngineEvents } from './types.js';

/** Builders of server objects for the engine's tests. */

export const ME = 'ada';
export const PEER = 'bob';
export const CONV = 'si_ada_bob';

export function text(value: string): MessageContent {
  return { kind: 'text', text: value };
}

export function serverMessage(seq: number, patch: Partial<Message> = {}): Message {
  return {
    id: `m${seq}`,
    conversationId: CONV,
    seq,
    senderId: PEER,
    clientMsgId: `client-${patch.senderId ?? PEER}-${seq}`,
    content: text(`message ${seq}`),
    createdAt: 1_000 + seq,
    revokedAt: null,
    burnAt: null,
    lang: null,
    editedAt: null,
    ...patch,
  };
}

export function serverConversation(patch: Partial<Conversation> = {}): Conversation {
  return {
    id: CONV,
    kind: 'single',
    peer: {
      id: PEER,
      teltlkId: 'bob0000001',
      nickname: 'Bob',
      avatarUrl: null,
      country: 'GB',
      motherTongue: 'en',
      official: false,
    },
    maxSeq: 0,
    readSeq: 0,
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
    updatedAt: 1_000,
    ...patch,
  };
}

/** A done translation of PEER's French message `seq` into English. */
export function serverTranslation(seq: number, patch: Partial<Translation> = {}): Translation {
  return {
    conversationId: CONV,
    seq,
    messageId: `m${seq}`,
    lang: 'en',
    from: 'fr',
    status: 'done',
    text: `t${seq}`,
    error: null,
    at: 10,
    ...patch,
  };
}

/** An engine of ME on the fake server, over fake sockets and an in-memory IndexedDB. */
export function testEngine(
  server: FakeServer,
  indexedDB: IDBFactory,
  options: Partial<EngineOptions> = {},
): ImEngine {
  return new ImEngine({
    wsUrl: 'ws://test/ws',
    userId: ME,
    getToken: () => 'tok',
    api: new ApiClient({ getToken: () => 'tok', fetch: server.fetch }),
    WebSocket: FakeWebSocket,
    indexedDB,
    IDBKeyRange,
    ...options,
  });
}

/** The events of a type an engine emits from now on, in order. */
export function record<K extends keyof EngineEvents>(engine: ImEngine, type: K): EngineEvents[K][] {
  const seen: EngineEvents[K][] = [];
  engine.on(type, (value) => seen.push(value));
  return seen;
}

/** A conversation screen's messages as words: texts, and the kind of anything else. */
export const texts = (handle: ConversationHandle): string[] =>
  handle
    .getSnapshot()
    .messages.map((message) =>
      message.content.kind === 'text' ? message.content.text : message.content.kind,
    );

export const seqs = (handle: ConversationHandle): (number | null)[] =>
  handle.getSnapshot().messages.map((message) => message.seq);
