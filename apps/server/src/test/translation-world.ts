import {
  singleConversationId,
  type Message,
  type MyGroup,
  type ServerFrame,
  type TranslateResult,
  type Translation,
} from '@teltlk/protocol';
import { expect } from 'vitest';
import { socketUrl, TestSocket } from './test-client.js';
import {
  createTestApp,
  type RegisteredUser,
  type TestApp,
  type TestAppOptions,
} from './harness.js';

export type TranslationFrame = Extract<ServerFrame, { t: 'translation' }>;
export const isTranslation = (frame: ServerFrame): frame is TranslationFrame =>
  frame.t === 'translation';
export const isMessage = (frame: ServerFrame): frame is Extract<ServerFrame, { t: 'message' }> =>
  frame.t === 'message';

/** A test app with sockets on a loopback port, people, friendships, groups. */
export class World {
  url = '';
  private readonly sockets: TestSocket[] = [];
  private counter = 0;

  private constructor(readonly t: TestApp) {}

  static async open(options: TestAppOptions): Promise<World> {
    const t = await createTestApp({
      ...options,
      translationRunner: { backoffMs: 5, batchWindowMs: 5, ...options.translationRunner },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const world = new World(t);
    world.url = socketUrl(t.app.server.address());
    return world;
  }

  person(motherTongue: string): Promise<RegisteredUser> {
    return this.t.register({ motherTongue, nickname: `P${motherTongue}` });
  }

  async befriend(a: RegisteredUser, b: RegisteredUser): Promise<void> {
    const { contacts } = this.t.ctx.services;
    const request = await contacts.sendRequest(
      { userId: a.user.id, sessionId: 'test' },
      { userId: b.user.id },
    );
    await contacts.acceptRequest({ userId: b.user.id, sessionId: 'test' }, request.id);
  }

  /** Friends with a conversation begun (a wave, which has nothing to translate). */
  async chat(a: RegisteredUser, b: RegisteredUser): Promise<string> {
    await this.befriend(a, b);
    const conversation = singleConversationId(a.user.id, b.user.id);
    await this.send(a, conversation, '👋');
    return conversation;
  }

  async group(owner: RegisteredUser, members: readonly RegisteredUser[]): Promise<string> {
    for (const member of members) await this.befriend(owner, member);
    const group = this.ok<MyGroup>(
      await this.call(owner, 'POST', '/groups', { memberIds: members.map((m) => m.user.id) }),
    );
    return `sg_${group.id}`;
  }

  async connect(user: RegisteredUser): Promise<TestSocket> {
    const socket = await TestSocket.connect(this.url, user.token);
    this.sockets.push(socket);
    return socket;
  }

  call(user: RegisteredUser, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
    return this.t.call(method, `/api/v1${url}`, { token: user.token, body });
  }

  ok<T>(response: Awaited<ReturnType<World['call']>>): T {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  }

  async send(from: RegisteredUser, conversationId: string, text: string): Promise<Message> {
    this.counter += 1;
    return this.ok<Message>(
      await this.call(from, 'POST', '/messages', {
        conversationId,
        clientMsgId: `tr-${Date.now().toString(36)}-${this.counter}`,
        content: { kind: 'text', text },
      }),
    );
  }

  async translate(
    user: RegisteredUser,
    conversationId: string,
    seqs: number[],
    extra: object = {},
  ): Promise<Translation[]> {
    return this.ok<TranslateResult>(
      await this.call(user, 'POST', '/translations', { conversationId, seqs, ...extra }),
    ).translations;
  }

  /** Waits for the provider work under way, then reads the stored translation. */
  async settled(user: RegisteredUser, message: Message): Promise<Translation | undefined> {
    await this.t.ctx.services.translations.drain();
    const [translation] = await this.translate(user, message.conversationId, [message.seq]);
    return translation;
  }

  async closeSockets(): Promise<void> {
    await Promise.all(this.sockets.splice(0).map((socket) => socket.close()));
  }

  async close(): Promise<void> {
    await this.closeSockets();
    await this.t.close();
  }
}
