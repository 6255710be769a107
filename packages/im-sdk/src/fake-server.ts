import {
  quotedPart,
  type ClientFrame,
  type Conversation,
  type Message,
  type MessageContent,
  type SendableContent,
  type ServerFrame,
  type TranslateBody,
  type Translation,
  type TranslationInfoResult,
  type UserEvent,
  type UserEventData,
} from '@teltlk/protocol';
import { FakeSocket } from './fake-socket.js';
import { CONV, ME, PEER, serverConversation } from './test-fixtures.js';

interface Member {
  readSeq: number;
  minSeq: number;
  pinned: boolean;
  muted: boolean;
  hidden: boolean;
  translate: boolean;
  translateTo: string | null;
  updatedAt: number;
}

/**
 * An in-memory server of one conversation between ME and PEER, seen by ME, for the
 * engine's tests of what the real server cannot be made to do on cue: lose or replay
 * frames, leave sends unanswered, go down, fail a sync, translate later. REST through
 * `fetch`, the socket through FakeSocket. It follows the contract's rules (seq per
 * conversation, idempotent clientMsgId, event stream) closely enough to catch an engine
 * that loses or duplicates data; the rest runs against the real server (engine-sync).
 */
export class FakeServer {
  messages: Message[] = [];
  events: UserEvent[] = [];
  member: Member = {
    readSeq: 0,
    minSeq: 0,
    pinned: false,
    muted: false,
    hidden: false,
    translate: true,
    translateTo: null,
    updatedAt: 1,
  };
  burnSeconds = 0;
  /** Paths of REST calls, in order. */
  requests: string[] = [];
  /** Socket frames received from clients, in order (pings left out). */
  frames: ClientFrame[] = [];
  /** Error codes to answer the next `send` frames with. */
  refuseNext: string[] = [];
  /** Conversation sync answers a server error (the rest works). */
  failSync = false;
  /** Whether new sockets get their hello (false: the server looks down). */
  up = true;
  /** Whether `send` frames get an answer (false: lost on the way). */
  answerSends = true;
  /** ME's mother tongue: the default translation target. */
  motherTongue = 'en';
  translationInfo: TranslationInfoResult = {
    available: true,
    maxLength: 5000,
    dailyCharacters: 100_000,
  };
  /** Translations made, by `seq:lang`. */
  translations = new Map<string, Translation>();
  /** Bodies of POST /translations, in order. */
  translateBodies: TranslateBody[] = [];
  /** `pending`: translations are made later (`finishTranslation`); `done`: at once. */
  translateMode: 'pending' | 'done' = 'pending';
  private clock = 0;

  constructor() {
    FakeSocket.onCreate = (socket) => {
      queueMicrotask(() => {
        if (!this.up) {
          socket.drop(1006);
          return;
        }
        socket.onClientFrame = (frame) => this.onFrame(socket, frame);
        socket.open();
      });
    };
  }

  /** Real time, strictly increasing (burn timers compare with Date.now()). */
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
    const visible = this.visible();
    return serverConversation({
      maxSeq: this.maxSeq,
      readSeq: this.member.readSeq,
      minSeq: this.member.minSeq,
      pinned: this.member.pinned,
      muted: this.member.muted,
      hidden: this.member.hidden,
      translate: this.member.translate,
      translateTo: this.member.translateTo,
      burnSeconds: this.burnSeconds,
      lastMessage: visible.at(-1) ?? null,
      updatedAt: Math.max(this.member.updatedAt, this.messages.at(-1)?.createdAt ?? 0),
    });
  }

  /** A send as stored: a reply's quote filled in from the quoted message, as the server does. */
  resolved(content: SendableContent): MessageContent {
    // Records go over REST (forwardMerged), never as a socket send.
    if (content.kind === 'merged') throw new Error('the fake server takes no records');
    if (content.kind !== 'text') return content;
    const { quote, ...rest } = content;
    if (!quote) return rest;
    const quoted = this.messages.find((message) => message.seq === quote.seq);
    const part = quoted && quoted.revokedAt === null ? quotedPart(quoted.content) : null;
    return {
      ...rest,
      quote:
        quoted && part
          ? { seq: quote.seq, senderId: quoted.senderId, ...part }
          : { seq: quote.seq, unavailable: true },
    };
  }

  /** A message from PEER (or a notice), pushed to ME's sockets unless `push` is false. */
  append(
    content: MessageContent,
    options: { senderId?: string; push?: boolean; clientMsgId?: string; lang?: string | null } = {},
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
      burnAt: this.burnSeconds > 0 ? this.clock + this.burnSeconds * 1000 : null,
      lang: options.lang ?? null,
      editedAt: null,
    };
    this.messages.push(message);
    this.member.hidden = false;
    if (senderId === ME) this.member.readSeq = seq;
    if (options.push !== false) this.push({ t: 'message', message });
    return message;
  }

  revoke(targetSeq: number, push = true): Message {
    const target = this.messages.find((message) => message.seq === targetSeq);
    if (!target) throw new Error('no such message');
    target.content = { kind: 'revoked' };
    target.revokedAt = this.clock;
    return this.append({ kind: 'revoke', targetSeq }, { senderId: target.senderId, push });
  }

  event(data: UserEventData, push = true): UserEvent {
    const event: UserEvent = { seq: this.events.length + 1, at: this.now(), data };
    this.events.push(event);
    if (push) this.push({ t: 'event', event });
    return event;
  }

  /** ME changed member state (from another device). */
  memberChange(patch: Partial<Member>, push = true): void {
    Object.assign(this.member, patch, { updatedAt: this.now() });
    this.event({ type: 'conversation', conversation: this.conversation() }, push);
  }

  /** Ends a pending translation as done (the text is `<lang>: <original>`), or failed. */
  finishTranslation(
    seq: number,
    lang: string,
    options: { error?: string; push?: boolean } = {},
  ): Translation {
    const current = this.translations.get(`${seq}:${lang}`);
    if (!current) throw new Error('no such translation');
    const message = this.messages.find((item) => item.seq === seq);
    const original = message?.content.kind === 'text' ? message.content.text : '';
    const translation: Translation = options.error
      ? { ...current, status: 'failed', text: null, error: options.error, at: this.now() }
      : { ...current, status: 'done', text: `${lang}: ${original}`, error: null, at: this.now() };
    this.translations.set(`${seq}:${lang}`, translation);
    if (options.push !== false) this.push({ t: 'translation', translation });
    return translation;
  }

  /** The server's rules: texts of others, in another known language, not revoked. */
  private translate(body: TranslateBody): Translation[] {
    const lang = body.lang ?? this.member.translateTo ?? this.motherTongue;
    const made: Translation[] = [];
    for (const seq of body.seqs) {
      const message = this.visible().find((item) => item.seq === seq);
      if (!message || message.content.kind !== 'text' || message.revokedAt !== null) continue;
      if (message.lang === null || message.lang === lang || message.senderId === ME) continue;
      const existing = this.translations.get(`${seq}:${lang}`);
      if (existing && !body.retry) {
        made.push(existing);
        continue;
      }
      const pending: Translation = {
        conversationId: CONV,
        seq,
        messageId: message.id,
        lang,
        from: message.lang,
        status: 'pending',
        text: null,
        error: null,
        at: this.now(),
      };
      // Without a provider, as the server: unavailable at once, and nothing kept.
      if (!this.translationInfo.available) {
        made.push({ ...pending, status: 'unavailable', error: 'TRANSLATION_UNAVAILABLE' });
        continue;
      }
      this.translations.set(`${seq}:${lang}`, pending);
      made.push(
        this.translateMode === 'done'
          ? this.finishTranslation(seq, lang, { push: false })
          : pending,
      );
    }
    return made;
  }

  push(frame: ServerFrame): void {
    for (const socket of this.sockets) socket.receive(frame);
  }

  private visible(): Message[] {
    return this.messages.filter((message) => message.seq > this.member.minSeq);
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
          this.append(this.resolved(frame.content), {
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
    if (!this.up) return Promise.reject(new TypeError('fetch failed'));
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
    if (path === '/translations' && method === 'POST') {
      const body = JSON.parse(init?.body as string) as TranslateBody;
      this.translateBodies.push(body);
      return json({ translations: this.translate(body) });
    }
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
    const match = /^\/conversations\/([^/]+)(\/.*)?$/.exec(path);
    if (!match || decodeURIComponent(match[1]!) !== CONV) {
      return json({ error: { code: 'NOT_FOUND', message: 'x' } }, 404);
    }
    const rest = match[2] ?? '';
    if (rest === '/messages') {
      const limit = query('limit') ?? 50;
      const after = query('after');
      const before = query('before');
      const visible = this.visible();
      if (after !== undefined) {
        const page = visible.filter((message) => message.seq > after);
        return json({ messages: page.slice(0, limit), hasMore: page.length > limit });
      }
      const older = visible.filter((message) => before === undefined || message.seq < before);
      return json({ messages: older.slice(-limit), hasMore: older.length > limit });
    }
    if (rest === '/read') {
      const { seq } = JSON.parse(init?.body as string) as { seq: number };
      this.memberChange({ readSeq: Math.max(this.member.readSeq, seq) });
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    if (rest === '' && method === 'PATCH') {
      this.memberChange(JSON.parse(init?.body as string) as Partial<Member>);
      return json(this.conversation());
    }
    if (rest === '/burn') {
      const { seconds } = JSON.parse(init?.body as string) as { seconds: number };
      this.burnSeconds = seconds;
      return json(this.append({ kind: 'burn', seconds }, { senderId: ME }));
    }
    return json({ error: { code: 'NOT_FOUND', message: 'x' } }, 404);
  };
}
