import type {
  ClientFrame,
  Conversation,
  Message,
  MessageContent,
  SendableContent,
  ServerFrame,
  TranslationInfoResult,
  UserEvent,
  UserEventData,
} from '@teltlk/protocol';
import { FakeSocket } from './fake-socket.js';
import { CONV, ME, PEER, serverConversation } from './test-fixtures.js';

/**
 * An in-memory server of one conversation between ME and PEER, seen by ME. The engine's
 * tests run against the real server in-process (engine-sync, engine-offline,
 * engine-translation); this one is left for what the real server cannot be made to do
 * on cue:
 *
 * - lose or replay a pushed message or event (`append` or `event` unpushed, `push` of an
 *   old frame): the real server pushes each one exactly once;
 * - leave sends unanswered (`answerSends`), so that the connection dies between a send
 *   and its answer, or refuse one with a given code (`refuseNext`);
 * - close a socket as a slow consumer at a given moment (through FakeSocket);
 * - fail the conversation sync with a server error (`failSync`);
 * - take sends of media no server stored: the uploads' tests answer their stand-in
 *   uploader with made-up media, which the real server would refuse to send.
 *
 * REST through `fetch`, the socket through FakeSocket. It follows the contract's rules
 * (seq per conversation, idempotent clientMsgId, event stream) closely enough to catch an
 * engine that loses or duplicates data.
 */
export class FakeServer {
  messages: Message[] = [];
  events: UserEvent[] = [];
  member = { readSeq: 0, pinned: false, muted: false, updatedAt: 1 };
  /** Paths of REST calls, in order. */
  requests: string[] = [];
  /** Socket frames received from clients, in order (pings left out). */
  frames: ClientFrame[] = [];
  /** Error codes to answer the next `send` frames with. */
  refuseNext: string[] = [];
  /** Conversation sync answers a server error (the rest works). */
  failSync = false;
  /** Whether `send` frames get an answer (false: lost on the way). */
  answerSends = true;
  /** A server without a translation provider: the engine asks, and translates nothing. */
  readonly translationInfo: TranslationInfoResult = {
    available: false,
    maxLength: 5000,
    dailyCharacters: 100_000,
  };
  private clock = 0;

  constructor() {
    FakeSocket.onCreate = (socket) => {
      queueMicrotask(() => {
        socket.onClientFrame = (frame) => this.onFrame(socket, frame);
        socket.open();
      });
    };
  }

  /** Real time, strictly increasing. */
  now(): number {
    this.clock = Math.max(Date.now(), this.clock + 1);
    return this.clock;
  }

  get sockets(): FakeSocket[] {
    return FakeSocket.instances.filter((socket) => socket.isOpen);
  }

  get maxSeq(): number {
    return this.messages.at(-1)?.seq ?? 0;
  }

  conversation(): Conversation {
    return serverConversation({
      maxSeq: this.maxSeq,
      readSeq: this.member.readSeq,
      pinned: this.member.pinned,
      muted: this.member.muted,
      lastMessage: this.messages.at(-1) ?? null,
      updatedAt: Math.max(this.member.updatedAt, this.messages.at(-1)?.createdAt ?? 0),
    });
  }

  /** A send as stored; the engine's tests here send no replies, whose quotes it would fill in. */
  stored(content: SendableContent): MessageContent {
    // Records go over REST (forwardMerged), never as a socket send.
    if (content.kind === 'merged') throw new Error('the fake server takes no records');
    if (content.kind !== 'text') return content;
    const { quote, ...text } = content;
    if (quote) throw new Error('the fake server takes no replies');
    return text;
  }

  /** A message from PEER, pushed to ME's sockets unless `push` is false. */
  append(
    content: MessageContent,
    options: { senderId?: string; push?: boolean; clientMsgId?: string } = {},
  ): Message {
    const seq = this.maxSeq + 1;
    const senderId = options.senderId ?? PEER;
    const message: Message = {
      id: `m${seq}`,
      conversationId: CONV,
      seq,
      senderId,
      clientMsgId: options.clientMsgId ?? `srv-${senderId}-${seq}`,
      content,
      createdAt: this.now(),
      revokedAt: null,
      burnAt: null,
      lang: null,
      editedAt: null,
    };
    this.messages.push(message);
    if (senderId === ME) this.member.readSeq = seq;
    if (options.push !== false) this.push({ t: 'message', message });
    return message;
  }

  event(data: UserEventData, push = true): UserEvent {
    const event: UserEvent = { seq: this.events.length + 1, at: this.now(), data };
    this.events.push(event);
    if (push) this.push({ t: 'event', event });
    return event;
  }

  /** ME changed how they keep the conversation (from another device). */
  memberChange(patch: { pinned?: boolean; muted?: boolean }, push = true): void {
    Object.assign(this.member, patch, { updatedAt: this.now() });
    this.event({ type: 'conversation', conversation: this.conversation() }, push);
  }

  push(frame: ServerFrame): void {
    for (const socket of this.sockets) socket.receive(frame);
  }

  private onFrame(socket: FakeSocket, frame: ClientFrame): void {
    if (frame.t !== 'ping') this.frames.push(frame);
    switch (frame.t) {
      case 'auth':
        socket.receive({ t: 'hello', userId: ME, sessionId: 's', now: this.clock });
        return;
      case 'ping':
        socket.receive({ t: 'pong', now: this.clock });
        return;
      case 'send': {
        if (!this.answerSends) return;
        const code = this.refuseNext.shift();
        if (code) {
          socket.receive({ t: 'error', rid: frame.rid, error: { code, message: code } });
          return;
        }
        const existing = this.messages.find(
          (message) => message.senderId === ME && message.clientMsgId === frame.clientMsgId,
        );
        const message =
          existing ??
          this.append(this.stored(frame.content), {
            senderId: ME,
            clientMsgId: frame.clientMsgId,
          });
        socket.receive({ t: 'ack', rid: frame.rid, message });
        return;
      }
      case 'read':
        this.member.readSeq = Math.max(this.member.readSeq, frame.seq);
        return;
      case 'typing':
        return;
    }
  }

  /** The REST API under /api/v1, as `fetch`. */
  readonly fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://test',
    );
    const path = url.pathname.replace('/api/v1', '');
    const method = init?.method ?? 'GET';
    this.requests.push(`${method} ${path}${url.search}`);
    const query = (name: string) => {
      const value = url.searchParams.get(name);
      return value === null ? undefined : Number(value);
    };
    const json = (body: unknown, status = 200) =>
      Promise.resolve(
        new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        }),
      );
    if (path === '/sync/conversations') {
      if (this.failSync) return json({ error: { code: 'INTERNAL', message: 'x' } }, 500);
      const since = query('since') ?? 0;
      const conversation = this.conversation();
      return json({
        conversations: conversation.updatedAt > since ? [conversation] : [],
        nextCursor: null,
        syncedAt: this.clock,
      });
    }
    if (path === '/translations/info') return json(this.translationInfo);
    if (path === '/sync/events') {
      const after = query('after') ?? 0;
      const limit = query('limit') ?? 200;
      const events = this.events.filter((event) => event.seq > after);
      return json({
        events: events.slice(0, limit),
        hasMore: events.length > limit,
        lastSeq: this.events.length,
      });
    }
    if (path === `/conversations/${CONV}/messages`) {
      const limit = query('limit') ?? 50;
      const after = query('after');
      const before = query('before');
      if (after !== undefined) {
        const page = this.messages.filter((message) => message.seq > after);
        return json({ messages: page.slice(0, limit), hasMore: page.length > limit });
      }
      const older = this.messages.filter((message) => before === undefined || message.seq < before);
      return json({ messages: older.slice(-limit), hasMore: older.length > limit });
    }
    return json({ error: { code: 'NOT_FOUND', message: 'x' } }, 404);
  };
}
