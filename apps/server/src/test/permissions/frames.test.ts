import {
  type ClientFrame,
  clientFrameSchema,
  type ServerFrame,
  SOCKET_CLOSE,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { type Actor, ACTORS, type Cast, clientMsgId } from '../cast.js';
import { dialects, PASSWORD, type TestApp } from '../harness.js';
import { socketUrl, TestSocket } from '../test-client.js';
import { matrixApp } from './app.js';
import { newMessage } from './arrange.js';
import { CALL_FRAME_ROWS, callAttempts, unauthenticatedCall } from './rows-calls.js';
import {
  cases,
  type FrameRow,
  type FrameWant,
  chatOf,
  GROUP_CHAT,
  groupChat,
  NO_CHAT,
  OK,
  SIGNED_IN,
  SINGLE_CHAT,
} from './cells.js';

const FRAME_ROWS: FrameRow[] = [
  { frame: 'auth', cells: SIGNED_IN },
  // Waiting on a device-login ticket takes its secret, which only the browser that asked
  // holds: with someone else's ticket id and any other secret the socket is closed.
  {
    frame: 'ticket',
    cells: {
      owner: 'closed',
      admin: 'closed',
      member: 'closed',
      blocked: 'closed',
      removed: 'closed',
      stranger: 'closed',
    },
  },
  { frame: 'ping', cells: SIGNED_IN },
  { frame: 'send', on: 'group', cells: GROUP_CHAT },
  { frame: 'send', on: 'one-to-one', cells: { ...SINGLE_CHAT, blocked: 'MESSAGE_REFUSED' } },
  { frame: 'read', on: 'group', cells: GROUP_CHAT },
  { frame: 'read', on: 'one-to-one', cells: SINGLE_CHAT },
  // Typing hints are relayed in one-to-one chats only, and never to someone who blocked you.
  {
    frame: 'typing',
    on: 'group',
    cells: {
      owner: 'dropped',
      admin: 'dropped',
      member: 'dropped',
      blocked: 'dropped',
      removed: 'dropped',
      stranger: 'dropped',
    },
  },
  {
    frame: 'typing',
    on: 'one-to-one',
    cells: {
      owner: OK,
      admin: 'dropped',
      member: OK,
      blocked: 'dropped',
      removed: 'dropped',
      stranger: 'dropped',
    },
  },
  ...CALL_FRAME_ROWS,
];

const is =
  <T extends ServerFrame['t']>(t: T) =>
  (frame: ServerFrame): frame is Extract<ServerFrame, { t: T }> =>
    frame.t === t;

describe.each(dialects)('permission matrix on $dialect', ({ dialect }) => {
  const matrix = matrixApp(dialect);
  let t: TestApp;
  let w: Cast;
  beforeAll(() => {
    ({ t, w } = matrix);
  });

  describe('socket frames', () => {
    const sockets = {} as Record<Actor, TestSocket>;
    const extra: TestSocket[] = [];
    let url: string;
    let typing: MockInstance;
    let barriers = 0;

    beforeAll(async () => {
      url = socketUrl(t.app.server.address());
      for (const as of ACTORS) sockets[as] = await TestSocket.connect(url, w.users[as].token);
      typing = vi.spyOn(t.ctx.services.messages, 'typing');
    });
    afterAll(async () => {
      typing.mockRestore();
      await Promise.all([...Object.values(sockets), ...extra].map((socket) => socket.close()));
    });

    async function open(): Promise<TestSocket> {
      const socket = await TestSocket.open(url);
      extra.push(socket);
      return socket;
    }

    /** The people of a conversation: who must get nothing of a refused frame. */
    function membersOf(conversationId: string): Actor[] {
      if (conversationId === w.single) return ['owner', 'member'];
      if (conversationId === w.blockedChat) return ['owner', 'blocked'];
      return ['owner', 'admin', 'member', 'blocked'];
    }

    /** The other person of a one-to-one chat the actor is in. */
    function peerOf(conversationId: string, as: Actor): Actor {
      return membersOf(conversationId).find((member) => member !== as)!;
    }

    /** How many frames each actor's socket has had so far. */
    function marks(): Map<Actor, number> {
      return new Map(ACTORS.map((actor) => [actor, sockets[actor].frames.length]));
    }

    /**
     * Resolves once every frame a socket sent before has been handled: a send is answered
     * in the order of the socket's queue, after the reads before it.
     */
    async function handled(socket: TestSocket): Promise<void> {
      barriers += 1;
      const answer = await socket.sendMessage(`sg_nowhere${barriers}`, 'barrier');
      expect(answer).toMatchObject({ code: NO_CHAT });
    }

    /**
     * The frames each member got from `since` up to a notice the owner then posts in the
     * conversation: pushes leave in order, so anything a refused frame caused comes first.
     */
    async function framesUntilMarker(
      conversationId: string,
      since: Map<Actor, number>,
    ): Promise<ServerFrame[]> {
      const notice = await w.send(w.users.owner, conversationId, 'marker');
      const frames: ServerFrame[] = [];
      for (const member of membersOf(conversationId)) {
        const socket = sockets[member];
        await socket.next((f) => f.t === 'message' && f.message.id === notice.id);
        frames.push(...socket.frames.slice(since.get(member)));
      }
      return frames;
    }

    it('has a row for every frame a client may send', () => {
      const frames = clientFrameSchema.options.map((option) => option.shape.t.value);
      expect(frames.filter((frame) => !FRAME_ROWS.some((row) => row.frame === frame))).toEqual([]);
    });

    /** A frame as the first of a socket with no auth frame before it. */
    function unauthenticated(frame: ClientFrame['t'], conversationId: string): ClientFrame {
      switch (frame) {
        case 'auth':
          return { t: 'auth', token: 'x'.repeat(43) };
        case 'ticket':
          return { t: 'ticket', id: 'x'.repeat(20), secret: 'x'.repeat(43) };
        case 'ping':
          return { t: 'ping' };
        case 'send':
          return {
            t: 'send',
            rid: 'r1',
            conversationId,
            clientMsgId: clientMsgId(),
            content: { kind: 'text', text: 'Hello' },
          };
        case 'read':
          return { t: 'read', conversationId, seq: 1 };
        case 'typing':
          return { t: 'typing', conversationId };
        default:
          return unauthenticatedCall(frame, conversationId);
      }
    }

    /** Each frame tried by an actor on a conversation, checked against what the cell wants. */
    const attempts: Record<
      ClientFrame['t'],
      (as: Actor, conversationId: string, want: FrameWant) => Promise<void>
    > = {
      async auth(as) {
        const socket = await open();
        socket.send({ t: 'auth', token: w.users[as].token });
        expect(await socket.next(is('hello'))).toMatchObject({ userId: w.users[as].user.id });
      },
      async ticket(as) {
        // Someone else's pending ticket, tried with a secret of the actor's own making.
        const ticket = await t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
        const approved = await w.call(as, 'POST', `/device-logins/${ticket.id}/decision`, {
          approve: true,
          match: ticket.match,
          proof: { method: 'password', password: PASSWORD },
        });
        expect(approved.statusCode, approved.body).toBe(200);
        const socket = await open();
        socket.send({ t: 'ticket', id: ticket.id, secret: 'y'.repeat(43) });
        expect((await socket.closed).code).toBe(SOCKET_CLOSE.tokenInvalid);
        expect(socket.frames.filter((f) => f.t === 'signedIn')).toEqual([]);
        // The approval still waits for the browser that holds the secret.
        const claim = await t.ctx.services.deviceLogins.claim(ticket.id, ticket.secret);
        expect(claim.state).toBe('approved');
      },
      async ping(as) {
        sockets[as].send({ t: 'ping' });
        await sockets[as].next(is('pong'));
      },
      async send(as, conversationId, want) {
        const since = marks();
        const id = clientMsgId();
        const answer = await sockets[as].sendMessage(conversationId, 'Hello over the socket', id);
        const isIt = (f: ServerFrame) => f.t === 'message' && f.message.clientMsgId === id;
        if (want === OK) {
          expect(answer).toMatchObject({ clientMsgId: id, conversationId });
          for (const member of membersOf(conversationId)) await sockets[member].next(isIt);
          return;
        }
        expect(answer).toMatchObject({ code: want });
        expect((await framesUntilMarker(conversationId, since)).filter(isIt)).toEqual([]);
        const stored = await t.ctx.db
          .selectFrom('messages')
          .select('id')
          .where('sender_id', '=', w.users[as].user.id)
          .where('client_msg_id', '=', id)
          .execute();
        expect(stored).toEqual([]);
      },
      async read(as, conversationId, want) {
        const socket = sockets[as];
        const { seq } = await newMessage(w, conversationId, as);
        const since = marks();
        socket.send({ t: 'read', conversationId, seq });
        await handled(socket);
        const errors = socket.frames
          .slice(since.get(as))
          .filter((f) => f.t === 'error' && f.rid === null);
        const receipt = (f: ServerFrame): f is Extract<ServerFrame, { t: 'read' }> =>
          f.t === 'read' && f.userId === w.users[as].user.id;
        if (want === OK) {
          expect(errors).toEqual([]);
          // Read receipts go to the other person of a one-to-one chat, not to a group.
          if (conversationId !== groupChat(w)) {
            await sockets[peerOf(conversationId, as)].next((f) => receipt(f) && f.seq === seq);
          }
          return;
        }
        expect(errors).toMatchObject([{ error: { code: want } }]);
        expect((await framesUntilMarker(conversationId, since)).filter(receipt)).toEqual([]);
      },
      async typing(as, conversationId, want) {
        const since = marks();
        typing.mockClear();
        sockets[as].send({ t: 'typing', conversationId });
        // A ping is answered as it is read, so the typing hint before it is under way.
        sockets[as].send({ t: 'ping' });
        await sockets[as].next(is('pong'));
        await Promise.all(typing.mock.results.map((result) => result.value as Promise<void>));
        const relayed = (f: ServerFrame) =>
          f.t === 'typing' &&
          f.userId === w.users[as].user.id &&
          f.conversationId === conversationId;
        if (want === OK) {
          await sockets[peerOf(conversationId, as)].next(relayed);
          return;
        }
        expect((await framesUntilMarker(conversationId, since)).filter(relayed)).toEqual([]);
      },
      ...callAttempts(() => w, sockets, handled),
    };

    for (const { row, as, want, todo } of cases<FrameRow, FrameWant>(FRAME_ROWS, 'closed')) {
      const test = todo ? it.skip : it;
      const name = row.on ? `${row.frame} (${row.on}) as ${as}` : `${row.frame} as ${as}`;
      test(`${name}${todo ? ` (todo: ${todo})` : ''}`, async () => {
        const conversationId = row.on === 'group' ? groupChat(w) : chatOf(w, as);
        if (as === 'anonymous') {
          // Before its auth frame a socket may send nothing else; a bad token closes it.
          const socket = await open();
          socket.send(unauthenticated(row.frame, conversationId));
          expect((await socket.closed).code).toBe(
            row.frame === 'auth' || row.frame === 'ticket'
              ? SOCKET_CLOSE.tokenInvalid
              : SOCKET_CLOSE.protocol,
          );
          return;
        }
        await attempts[row.frame](as, conversationId, want);
      });
    }
  });
});
