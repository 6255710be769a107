import { JanusError, NO_SUCH_SESSION, type JanusMessage, type PluginData } from './api';

/**
 * A Janus session over its HTTP API (the REST transport): requests are POSTs to the
 * session's and its handles' paths; whatever Janus has to say later (plugin answers,
 * notifications, WebRTC events) comes back through a long poll, a GET on the session that
 * Janus holds until it has events (or for 30 s, answering a keepalive). One poll at a time,
 * each asked for once the one before has answered, until the session ends.
 */

export interface SessionOptions {
  /** Janus's HTTP API, e.g. `https://sfu.example.com/janus`. */
  url: string;
  fetch: typeof fetch;
  /**
   * The session ended without destroy(): Janus dropped it (it timed out, or Janus
   * restarted) or stopped answering. Called at most once.
   */
  onLost: (error: JanusError) => void;
}

/**
 * Janus drops a session no request touched for `session_timeout` (60 s in infra/janus). A
 * long poll counts as one, but a keepalive is sent besides, well within the timeout, so a
 * poll held up on the way does not cost the session.
 */
export const KEEPALIVE_MS = 25_000;
/** Events one poll may carry: a burst (a renegotiation, several arrivals) in one answer. */
const MAX_EVENTS = 16;
/** Janus answers a poll within 30 s even with nothing to say; longer is a dead connection. */
const POLL_TIMEOUT_MS = 45_000;
/** A request Janus does not answer in this time (or its plugin, for a message) fails. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Polls that fail in a row before the session is judged lost; each waits longer. */
const POLL_RETRIES = 3;
const POLL_RETRY_MS = 1_000;

/** What a plugin answered a message with: its data, and an SDP offer or answer with it. */
export interface PluginAnswer {
  data: PluginData;
  jsep: RTCSessionDescriptionInit | undefined;
}

interface Pending {
  resolve: (event: JanusMessage) => void;
  reject: (error: JanusError) => void;
}

/**
 * POSTs a Janus request. The body goes as text without a content type, which makes it a
 * "simple" cross-origin request: no CORS preflight before each candidate or keepalive
 * (Janus reads the JSON whatever the type says).
 */
async function post(
  options: SessionOptions,
  path: string,
  message: Record<string, unknown>,
  transaction: string,
): Promise<JanusMessage> {
  // Called detached: the page's own fetch refuses to run as a method of another object.
  const send = options.fetch;
  let response: Response;
  try {
    response = await send(`${options.url}${path}`, {
      method: 'POST',
      body: JSON.stringify({ ...message, transaction }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new JanusError(`Janus unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) throw new JanusError(`Janus answered ${response.status}`);
  return (await response.json()) as JanusMessage;
}

function failure(reply: JanusMessage): JanusError {
  return new JanusError(
    reply.error?.reason ?? `unexpected answer ${reply.janus}`,
    reply.error?.code,
  );
}

/** The id in a `success` answer (of `create` or `attach`). */
function idOf(reply: JanusMessage): number {
  const id = reply.data?.id;
  if (reply.janus !== 'success' || typeof id !== 'number') throw failure(reply);
  return id;
}

let transactions = 0;
const transactionPrefix = Math.random().toString(36).slice(2, 10);
function nextTransaction(): string {
  transactions += 1;
  return `${transactionPrefix}${transactions.toString(36)}`;
}

export class JanusSession {
  private readonly handles = new Map<number, JanusHandle>();
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  private poll: AbortController | null = null;
  private readonly keepalive: ReturnType<typeof setInterval>;

  private constructor(
    private readonly options: SessionOptions,
    readonly id: number,
  ) {
    this.keepalive = setInterval(() => void this.sendKeepalive(), KEEPALIVE_MS);
    void this.pollEvents();
  }

  /** A new session on Janus, polled and kept alive until destroy() or its loss. */
  static async create(options: SessionOptions): Promise<JanusSession> {
    return new JanusSession(
      options,
      idOf(await post(options, '', { janus: 'create' }, nextTransaction())),
    );
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** A handle on a plugin; `onEvent` hears every event about it, in Janus's order. */
  async attach(plugin: string, onEvent: (event: JanusMessage) => void): Promise<JanusHandle> {
    const id = idOf(await this.send(`/${this.id}`, { janus: 'attach', plugin }));
    const handle = new JanusHandle(this, id, onEvent);
    this.handles.set(id, handle);
    return handle;
  }

  /**
   * A message to a handle's plugin: resolves with the plugin's answer (synchronous, or the
   * event that answers it later), rejects with the plugin's or Janus's refusal.
   */
  async message(
    handle: number,
    body: Record<string, unknown>,
    jsep?: RTCSessionDescriptionInit,
    onSent?: () => void,
  ): Promise<PluginAnswer> {
    if (this.closed) throw new JanusError('the session is closed');
    const transaction = nextTransaction();
    // Registered before the POST: the answer may come through the poll before the ack.
    const answered = new Promise<JanusMessage>((resolve, reject) =>
      this.pending.set(transaction, { resolve, reject }),
    );
    let event: JanusMessage;
    try {
      const reply = await post(
        this.options,
        `/${this.id}/${handle}`,
        { janus: 'message', body, ...(jsep ? { jsep } : {}) },
        transaction,
      );
      onSent?.();
      if (reply.janus === 'ack') {
        const timeout = setTimeout(
          () => this.settle(transaction, new JanusError(`no answer to ${String(body.request)}`)),
          REQUEST_TIMEOUT_MS,
        );
        try {
          event = await answered;
        } finally {
          clearTimeout(timeout);
        }
      } else {
        this.pending.delete(transaction);
        if (reply.janus !== 'success') throw failure(reply);
        event = reply;
      }
    } catch (error) {
      this.pending.delete(transaction);
      throw error;
    }
    if (event.janus === 'error') throw failure(event);
    const data = event.plugindata?.data;
    if (!data) throw failure(event);
    if (typeof data.error_code === 'number') {
      throw new JanusError(String(data.error), data.error_code);
    }
    return { data, jsep: event.jsep };
  }

  /** A request of the session or a handle that Janus answers at once. */
  async send(path: string, message: Record<string, unknown>): Promise<JanusMessage> {
    if (this.closed) throw new JanusError('the session is closed');
    return post(this.options, path, message, nextTransaction());
  }

  forget(handle: number): void {
    this.handles.delete(handle);
  }

  /** Ends the session on Janus (its handles with it) and stops polling; never throws. */
  async destroy(): Promise<void> {
    if (!this.stop(new JanusError('the session is closed'))) return;
    await post(this.options, `/${this.id}`, { janus: 'destroy' }, nextTransaction()).catch(
      () => undefined,
    );
  }

  /** Stops timers and polling and fails what waits; false if already stopped. */
  private stop(error: JanusError): boolean {
    if (this.closed) return false;
    this.closed = true;
    clearInterval(this.keepalive);
    this.poll?.abort();
    for (const transaction of [...this.pending.keys()]) this.settle(transaction, error);
    this.handles.clear();
    return true;
  }

  private lose(error: JanusError): void {
    if (this.stop(error)) this.options.onLost(error);
  }

  private settle(transaction: string, outcome: JanusMessage | JanusError): void {
    const pending = this.pending.get(transaction);
    if (!pending) return;
    this.pending.delete(transaction);
    if (outcome instanceof JanusError) pending.reject(outcome);
    else pending.resolve(outcome);
  }

  private async sendKeepalive(): Promise<void> {
    if (this.closed) return;
    try {
      const reply = await post(
        this.options,
        `/${this.id}`,
        { janus: 'keepalive' },
        nextTransaction(),
      );
      if (reply.janus === 'error' && reply.error?.code === NO_SUCH_SESSION)
        this.lose(failure(reply));
    } catch {
      // Unreachable for now: the poll judges whether Janus is gone.
    }
  }

  private async pollEvents(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      const poll = new AbortController();
      this.poll = poll;
      try {
        const { fetch: get, url } = this.options;
        const response = await get(`${url}/${this.id}?maxev=${MAX_EVENTS}`, {
          cache: 'no-store',
          signal: AbortSignal.any([poll.signal, AbortSignal.timeout(POLL_TIMEOUT_MS)]),
        });
        if (response.status === 404) {
          this.lose(new JanusError('the session is gone', NO_SUCH_SESSION));
          return;
        }
        if (!response.ok) throw new Error(`Janus answered ${response.status}`);
        const events = [(await response.json()) as JanusMessage | JanusMessage[]].flat();
        failures = 0;
        for (const event of events) {
          if (this.closed) return;
          this.dispatch(event);
        }
      } catch (error) {
        if (this.closed) return;
        failures += 1;
        if (failures > POLL_RETRIES) {
          this.lose(new JanusError(`Janus unreachable: ${(error as Error).message}`));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_RETRY_MS * failures));
      }
    }
  }

  private dispatch(event: JanusMessage): void {
    if (event.janus === 'keepalive') return;
    if (event.janus === 'timeout') {
      this.lose(new JanusError('the session timed out', NO_SUCH_SESSION));
      return;
    }
    if (event.transaction) this.settle(event.transaction, event);
    if (event.sender !== undefined) this.handles.get(event.sender)?.hear(event);
  }
}

/**
 * A handle on a plugin in a session: its messages, and the ICE candidates of its
 * PeerConnection trickled to Janus. Candidates wait until the handle's first SDP has
 * been sent (Janus would queue them otherwise, with a warning each), then go in batches:
 * whatever gathered while the previous batch was on its way.
 */
export class JanusHandle {
  private readonly candidates: RTCIceCandidateInit[] = [];
  private gathered = false;
  private sdpSent = false;
  private trickling = false;

  constructor(
    private readonly session: JanusSession,
    readonly id: number,
    private readonly onEvent: (event: JanusMessage) => void,
  ) {}

  request(body: Record<string, unknown>, jsep?: RTCSessionDescriptionInit): Promise<PluginAnswer> {
    return this.session.message(this.id, body, jsep, () => {
      if (!jsep || this.sdpSent) return;
      this.sdpSent = true;
      void this.flushCandidates();
    });
  }

  /** A candidate of the handle's PeerConnection; null when it has gathered them all. */
  trickle(candidate: RTCIceCandidateInit | null): void {
    if (candidate) this.candidates.push(candidate);
    else this.gathered = true;
    void this.flushCandidates();
  }

  hear(event: JanusMessage): void {
    this.onEvent(event);
  }

  /** Detaches from the plugin (a publisher leaves its room with it); never throws. */
  async detach(): Promise<void> {
    this.session.forget(this.id);
    if (!this.session.isOpen) return;
    await this.session
      .send(`/${this.session.id}/${this.id}`, { janus: 'detach' })
      .catch(() => undefined);
  }

  private async flushCandidates(): Promise<void> {
    while (this.sdpSent && !this.trickling && this.session.isOpen) {
      const batch: Record<string, unknown>[] = this.candidates.splice(0).map((c) => ({ ...c }));
      if (this.gathered) batch.push({ completed: true });
      if (batch.length === 0) return;
      this.gathered = false;
      this.trickling = true;
      try {
        await this.session.send(`/${this.session.id}/${this.id}`, {
          janus: 'trickle',
          candidates: batch,
        });
      } catch {
        // A candidate lost on the way: ICE fails on its own if it was needed, and the
        // PeerConnection's state tells.
      } finally {
        this.trickling = false;
      }
    }
  }
}
