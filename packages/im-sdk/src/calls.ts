import { ApiError, routes, type ApiClient } from '@teltlk/client';
import {
  isErrorCode,
  type Call,
  type CallMedia,
  type CallSignal,
  type ClientFrame,
  type IceServersResult,
  type ServerFrame,
  type SfuJoinResult,
} from '@teltlk/protocol';
import { Emitter } from './emitter.js';

/** A call frame a client sends and the server answers, without its request id. */
type CallRequest = DistributiveOmit<
  Extract<ClientFrame, { t: `call${string}`; rid: string }>,
  'rid'
>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** How long a call frame waits for its answer, across reconnects, before it fails. */
export const CALL_REQUEST_TIMEOUT_MS = 15_000;

export interface CallEvents {
  /** An offer, answer or candidate from the other device of a one-to-one call. */
  signal: { callId: string; fromSessionId: string; signal: CallSignal };
  /** Another device of this person took the call: this one stops ringing. */
  answeredElsewhere: { callId: string };
  /**
   * The socket is back after a drop: the server took this device's calls as lost (or, in a
   * group, as left), and a call still going here says so again.
   */
  reconnected: void;
}

interface Pending {
  frame: ClientFrame;
  resolve: (call: Call) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** What the calls part needs of the socket. */
export interface CallSocket {
  readonly isReady: boolean;
  readonly sessionId: string | null;
  send(frame: ClientFrame): boolean;
}

/**
 * The signalling half of calls on the client: the calls this person is rung by or in, as
 * the server's `call` frames tell them (read back from `/calls/current` after each
 * reconnect), and the transitions sent as frames answered by the call as it now stands.
 * A frame sent while the socket is down waits for the next connection: every transition is
 * idempotent on the server, so one sent twice does no harm.
 */
export class CallsClient {
  private readonly calls = new Map<string, Call>();
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<() => void>();
  private readonly events = new Emitter<CallEvents>();
  private snapshot: readonly Call[] = [];
  private nextRid = 0;
  private connectedBefore = false;

  constructor(
    private readonly deps: {
      api: ApiClient;
      socket: CallSocket;
      onBackgroundError: (error: unknown) => void;
    },
  ) {}

  /** This device's session, as the server named it (null before the first connection). */
  get sessionId(): string | null {
    return this.deps.socket.sessionId;
  }

  /** The calls known here, newest first: ringing, running, and ended ones not yet forgotten. */
  getSnapshot = (): readonly Call[] => this.snapshot;

  /** Bound, so a view can hand it to useSyncExternalStore as it is. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  on<K extends keyof CallEvents>(type: K, listener: (value: CallEvents[K]) => void): () => void {
    return this.events.on(type, listener);
  }

  invite(conversationId: string, media: CallMedia, clientCallId: string): Promise<Call> {
    return this.request({ t: 'callInvite', clientCallId, conversationId, media });
  }

  accept(callId: string): Promise<Call> {
    return this.request({ t: 'callAccept', callId });
  }

  reject(callId: string): Promise<Call> {
    return this.request({ t: 'callReject', callId });
  }

  cancel(callId: string): Promise<Call> {
    return this.request({ t: 'callCancel', callId });
  }

  hangup(callId: string): Promise<Call> {
    return this.request({ t: 'callHangup', callId });
  }

  media(callId: string, state: 'connected' | 'lost' | 'restored'): Promise<Call> {
    return this.request({ t: 'callMedia', callId, state });
  }

  /** Relays a WebRTC offer, answer or candidate; false while the socket is down. */
  signal(callId: string, signal: CallSignal): boolean {
    return this.deps.socket.send({ t: 'callSignal', callId, signal });
  }

  iceServers(): Promise<IceServersResult> {
    return this.deps.api.call(routes.calls.iceServers, {});
  }

  /** A group call's room on the SFU and this person's token (after joining it). */
  sfu(callId: string): Promise<SfuJoinResult> {
    return this.deps.api.call(routes.calls.sfu, { params: { id: callId } });
  }

  /** Drops an ended call from the snapshot (its screen closed). */
  forget(callId: string): void {
    const call = this.calls.get(callId);
    if (call?.state !== 'ended') return;
    this.calls.delete(callId);
    this.changed();
  }

  /** A frame from the server: true if it was a call's. */
  handle(frame: ServerFrame): boolean {
    switch (frame.t) {
      case 'call': {
        this.put(frame.call);
        if (frame.rid !== null) this.settle(frame.rid)?.resolve(frame.call);
        return true;
      }
      case 'callAnswered':
        if (frame.sessionId !== this.sessionId) {
          this.events.emit('answeredElsewhere', { callId: frame.callId });
        }
        return true;
      case 'callSignal':
        // The server relays to the person; only the device in the call takes it.
        if (!this.joinedHere(frame.callId)) return true;
        this.events.emit('signal', {
          callId: frame.callId,
          fromSessionId: frame.fromSessionId,
          signal: frame.signal,
        });
        return true;
      case 'error': {
        if (frame.rid === null || !this.pending.has(frame.rid)) return false;
        const code = isErrorCode(frame.error.code) ? frame.error.code : 'INTERNAL';
        this.settle(frame.rid)?.reject(new ApiError(code, 400, frame.error.params));
        return true;
      }
      default:
        return false;
    }
  }

  /** The socket is (again) ready: frames that waited go out, and the calls are read back. */
  onConnected(): void {
    if (this.connectedBefore) this.events.emit('reconnected');
    this.connectedBefore = true;
    for (const pending of this.pending.values()) this.deps.socket.send(pending.frame);
    void this.readBack().catch(this.deps.onBackgroundError);
  }

  /** The engine stops: what waits fails, and nothing is kept. */
  stop(): void {
    for (const rid of [...this.pending.keys()]) {
      this.settle(rid)?.reject(new ApiError('NETWORK_ERROR', 0));
    }
    this.calls.clear();
    this.changed();
  }

  private async readBack(): Promise<void> {
    const { calls } = await this.deps.api.call(routes.calls.current, {});
    const live = new Set(calls.map((call) => call.id));
    for (const call of calls) this.put(call);
    // A call that ended while this device was away: its end frame never came, and it is
    // over (the chat has its record); one this person was never part of (a group's running
    // call heard about as a member) is read from the frames alone.
    for (const [id, call] of this.calls) {
      if (call.state !== 'ended' && !live.has(id) && this.isMine(call)) this.calls.delete(id);
    }
    this.changed();
  }

  /** This device is the one its person takes part in the call with. */
  joinedHere(callId: string): boolean {
    const session = this.sessionId;
    return (
      session !== null &&
      (this.calls
        .get(callId)
        ?.participants.some((p) => p.state === 'joined' && p.sessionId === session) ??
        false)
    );
  }

  private isMine(call: Call): boolean {
    return call.participants.some((p) => p.state === 'ringing') || this.joinedHere(call.id);
  }

  private request(frame: CallRequest): Promise<Call> {
    this.nextRid += 1;
    const rid = `c${this.nextRid}`;
    const full = { ...frame, rid } as ClientFrame;
    return new Promise<Call>((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(rid)?.reject(new ApiError('NETWORK_ERROR', 0)),
        CALL_REQUEST_TIMEOUT_MS,
      );
      this.pending.set(rid, { frame: full, resolve, reject, timer });
      // Not connected: it goes out when the socket is back (onConnected).
      this.deps.socket.send(full);
    });
  }

  private settle(rid: string): Pending | undefined {
    const pending = this.pending.get(rid);
    if (!pending) return undefined;
    clearTimeout(pending.timer);
    this.pending.delete(rid);
    return pending;
  }

  private put(call: Call): void {
    const known = this.calls.get(call.id);
    // Frames of one call can cross (a reply and a broadcast): an ended call stays ended.
    if (known?.state === 'ended' && call.state !== 'ended') return;
    this.calls.set(call.id, call);
    this.changed();
  }

  private changed(): void {
    this.snapshot = [...this.calls.values()].sort((a, b) => b.createdAt - a.createdAt);
    for (const listener of [...this.listeners]) listener();
  }
}
