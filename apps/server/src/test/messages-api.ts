import {
  singleConversationId,
  type Conversation,
  type ConversationSyncResult,
  type EventPageResult,
  type Message,
  type MessagePageResult,
} from '@teltlk/protocol';
import { expect } from 'vitest';
import type { RegisteredUser, TestApp } from './harness.js';

let counter = 0;

/** A client message id no other send of the run has. */
export const clientId = () => `msg-${Date.now().toString(36)}-${(counter += 1)}`;

/** The messages tests' calls, as people of the app made by `app` (over HTTP, mostly). */
export function chatApi(app: () => TestApp) {
  const auth = (user: RegisteredUser) => ({ userId: user.user.id, sessionId: 'test' });

  async function befriend(a: RegisteredUser, b: RegisteredUser): Promise<void> {
    const { contacts } = app().ctx.services;
    const request = await contacts.sendRequest(auth(a), { userId: b.user.id });
    await contacts.acceptRequest(auth(b), request.id);
  }

  async function send(from: RegisteredUser, conversationId: string, text: string, id = clientId()) {
    return app().call('POST', '/api/v1/messages', {
      token: from.token,
      body: { conversationId, clientMsgId: id, content: { kind: 'text', text } },
    });
  }

  async function sent(
    from: RegisteredUser,
    conversationId: string,
    text: string,
  ): Promise<Message> {
    const response = await send(from, conversationId, text);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Message>();
  }

  async function pull(
    user: RegisteredUser,
    conversationId: string,
    query = '',
  ): Promise<MessagePageResult> {
    const response = await app().call(
      'GET',
      `/api/v1/conversations/${conversationId}/messages${query}`,
      {
        token: user.token,
      },
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MessagePageResult>();
  }

  async function sync(user: RegisteredUser, query = ''): Promise<ConversationSyncResult> {
    const response = await app().call('GET', `/api/v1/sync/conversations${query}`, {
      token: user.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ConversationSyncResult>();
  }

  async function conversation(user: RegisteredUser, id: string): Promise<Conversation> {
    const found = (await sync(user)).conversations.find((c) => c.id === id);
    if (!found) throw new Error(`no conversation ${id}`);
    return found;
  }

  async function events(user: RegisteredUser): Promise<EventPageResult> {
    return (
      await app().call('GET', '/api/v1/sync/events?after=0', { token: user.token })
    ).json<EventPageResult>();
  }

  /** Two fresh friends and their conversation id. */
  async function pair(): Promise<[RegisteredUser, RegisteredUser, string]> {
    const a = await app().register();
    const b = await app().register();
    await befriend(a, b);
    return [a, b, singleConversationId(a.user.id, b.user.id)];
  }

  return { auth, befriend, send, sent, pull, sync, conversation, events, pair };
}
