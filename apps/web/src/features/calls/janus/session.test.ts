import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JanusError, type JanusMessage } from './api';
import { JanusSession, KEEPALIVE_MS } from './session';

const URL = 'http://janus.test/janus';
const SESSION = 4242;
const HANDLE = 77;

interface Posted {
  path: string;
  body: Record<string, unknown>;
}

/**
 * Janus's HTTP API as the session sees it: POSTs answered by `answer` (a success with an
 * id, or an ack), long polls held until the test hands them events.
 */
class FakeJanus {
  readonly posts: Posted[] = [];
  private readonly polls: { resolve: (response: Response) => void }[] = [];
  /** Polls asked for so far, and the most waiting at once. */
  pollsAsked = 0;
  mostPollsAtOnce = 0;
  answer: (posted: Posted) => JanusMessage = ({ body }) =>
    body.janus === 'create' || body.janus === 'attach'
      ? { janus: 'success', data: { id: body.janus === 'create' ? SESSION : HANDLE } }
      : { janus: 'ack' };

  readonly fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const path = (input as string).slice(URL.length);
    if (init?.method === 'POST') {
      const posted = { path, body: JSON.parse(init.body as string) as Record<string, unknown> };
      this.posts.push(posted);
      return Promise.resolve(Response.json(this.answer(posted)));
    }
    expect(path).toBe(`/${SESSION}?maxev=16`);
    this.pollsAsked += 1;
    return new Promise<Response>((resolve, reject) => {
      this.polls.push({ resolve });
      this.mostPollsAtOnce = Math.max(this.mostPollsAtOnce, this.polls.length);
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted')));
    });
  };

  get waitingPolls(): number {
    return this.polls.length;
  }

  /** Answers the waiting poll with these events (or a status without a body). */
  release(events: JanusMessage[] | number): void {
    const poll = this.polls.shift();
    if (!poll) throw new Error('no poll is waiting');
    poll.resolve(
      typeof events === 'number' ? new Response(null, { status: events }) : Response.json(events),
    );
  }

  sent(janus: string): Posted[] {
    return this.posts.filter((posted) => posted.body.janus === janus);
  }
}

/** Lets the session's promises run (fetch answers, awaits) under fake timers. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('Janus session over HTTP', () => {
  let janus: FakeJanus;
  let lost: JanusError[];
  const open = () =>
    JanusSession.create({ url: URL, fetch: janus.fetch, onLost: (error) => lost.push(error) });

  beforeEach(() => {
    vi.useFakeTimers();
    janus = new FakeJanus();
    lost = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls for events one request at a time, the next once the last has answered', async () => {
    const session = await open();
    await settle();
    expect(janus.pollsAsked).toBe(1);
    const heard: string[] = [];
    await session.attach('janus.plugin.videoroom', (event) => heard.push(event.janus));
    for (let round = 0; round < 3; round += 1) {
      await vi.advanceTimersByTimeAsync(5_000);
      expect(janus.waitingPolls).toBe(1);
      janus.release([{ janus: 'webrtcup', sender: HANDLE }, { janus: 'keepalive' }]);
      await settle();
    }
    expect(janus.pollsAsked).toBe(4);
    expect(janus.mostPollsAtOnce).toBe(1);
    expect(heard).toEqual(['webrtcup', 'webrtcup', 'webrtcup']);
    await session.destroy();
  });

  it('keeps the session alive well within Janus’s 60 s timeout while it lasts, then stops', async () => {
    expect(KEEPALIVE_MS).toBeLessThan(60_000);
    const session = await open();
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    const keepalives = janus.sent('keepalive');
    expect(keepalives.length).toBeGreaterThanOrEqual(Math.floor(120_000 / KEEPALIVE_MS));
    expect(keepalives.every(({ path }) => path === `/${SESSION}`)).toBe(true);
    await session.destroy();
    expect(janus.sent('destroy')).toHaveLength(1);
    // The poll was aborted; neither polls nor keepalives follow.
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(janus.sent('keepalive')).toHaveLength(keepalives.length);
    expect(janus.pollsAsked).toBe(1);
    expect(lost).toEqual([]);
  });

  it('answers a message with the event of its transaction, even one polled before the ack', async () => {
    const session = await open();
    const handle = await session.attach('janus.plugin.videoroom', () => {});
    let transaction = '';
    janus.answer = ({ body }) => {
      transaction = String(body.transaction);
      // The answer is on its way through the poll before the ack reaches the client.
      janus.release([
        {
          janus: 'event',
          sender: HANDLE,
          transaction,
          plugindata: { plugin: 'janus.plugin.videoroom', data: { videoroom: 'joined', id: 9 } },
          jsep: { type: 'answer', sdp: 'v=0' },
        },
      ]);
      return { janus: 'ack' };
    };
    const answer = await handle.request({ request: 'join', room: 1 });
    expect(answer).toEqual({
      data: { videoroom: 'joined', id: 9 },
      jsep: { type: 'answer', sdp: 'v=0' },
    });
    expect(janus.posts.at(-1)?.path).toBe(`/${SESSION}/${HANDLE}`);

    janus.answer = ({ body }) => {
      setTimeout(() =>
        janus.release([
          {
            janus: 'event',
            sender: HANDLE,
            transaction: String(body.transaction),
            plugindata: {
              plugin: 'janus.plugin.videoroom',
              data: { videoroom: 'event', error_code: 433, error: 'Unauthorized' },
            },
          },
        ]),
      );
      return { janus: 'ack' };
    };
    const refused = handle.request({ request: 'join', room: 1, token: 'guessed' });
    const expectation = expect(refused).rejects.toMatchObject({ name: 'JanusError', code: 433 });
    await settle();
    await expectation;
    await session.destroy();
  });

  it('holds candidates until the SDP has gone, then trickles them together with their end', async () => {
    const session = await open();
    const handle = await session.attach('janus.plugin.videoroom', () => {});
    const candidate = (n: number) => ({
      candidate: `candidate:${n}`,
      sdpMid: '0',
      sdpMLineIndex: 0,
    });
    handle.trickle(candidate(1));
    handle.trickle(candidate(2));
    handle.trickle(null);
    await settle();
    expect(janus.sent('trickle')).toEqual([]);
    void handle.request({ request: 'publish' }, { type: 'offer', sdp: 'v=0' }).catch(() => {});
    await settle();
    expect(janus.sent('trickle').map(({ body }) => body.candidates)).toEqual([
      [candidate(1), candidate(2), { completed: true }],
    ]);
    await session.destroy();
  });

  it('is lost once when Janus no longer knows it, and fails what waits', async () => {
    const session = await open();
    const handle = await session.attach('janus.plugin.videoroom', () => {});
    const waiting = handle.request({ request: 'configure' });
    const expectation = expect(waiting).rejects.toBeInstanceOf(JanusError);
    await settle();
    janus.release(404);
    await settle();
    await expectation;
    expect(lost.map((error) => error.code)).toEqual([458]);
    expect(session.isOpen).toBe(false);
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(janus.pollsAsked).toBe(1);
    expect(janus.sent('keepalive')).toEqual([]);
    expect(lost).toHaveLength(1);
  });
});
