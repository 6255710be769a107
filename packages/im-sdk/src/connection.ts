import {
  HEARTBEAT_INTERVAL_MS,
  SOCKET_AUTH_TIMEOUT_MS,
  SOCKET_CLOSE,
  isKnownServerFrame,
  type ClientFrame,
  type ServerFrame,
} from '@teltlk/protocol';
import type { ConnectionState } from './types.js';

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
/** A ping not answered this long means the link is dead even if the socket looks open. */
export const PONG_TIMEOUT_MS = 10_000;

/** Full jitter: a random wait in [0, min(cap, base * 2^attempt)). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/** Why the connection stopped for good: the session is not usable any more. */
export type EndReason = 'tokenInvalid' | 'tokenExpired' | 'kickedOffline';

export interface ConnectionOptions {
  url: string;
  getToken(): string | null;
  WebSocket: typeof WebSocket;
  onState(state: ConnectionState): void;
  /** Each attempt that ends before the server's hello. */
  onFailed(): void;
  /** The server accepted the token. */
  onReady(): void;
  onFrame(frame: ServerFrame): void;
  /** Closed by the server for a reason reconnecting cannot fix; no reconnects follow. */
  onEnd(reason: EndReason): void;
  random?: () => number;
}

/**
 * Close codes after which reconnecting cannot help. Every other close reconnects: going
 * away, a slow consumer cut off (sync catches up what was dropped), too many sockets
 * (backing off until one closes), a lost network.
 */
const END_CODES: Record<number, EndReason> = {
  [SOCKET_CLOSE.tokenInvalid]: 'tokenInvalid',
  [SOCKET_CLOSE.tokenExpired]: 'tokenExpired',
  [SOCKET_CLOSE.kicked]: 'kickedOffline',
};

/**
 * One logical connection to /ws: authenticates with the first frame, heartbeats, and
 * reconnects with exponential backoff and full jitter until stopped or ended by the
 * server's close code.
 */
export class Connection {
  private socket: WebSocket | null = null;
  private ready = false;
  private helloSessionId: string | null = null;
  private running = false;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private authTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: ReturnType<typeof setTimeout> | null = null;
  private state: ConnectionState = 'disconnected';

  constructor(private readonly options: ConnectionOptions) {}

  /** The session the server says this socket is (from its hello), once it said so. */
  get sessionId(): string | null {
    return this.helloSessionId;
  }

  get isReady(): boolean {
    return this.ready;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    this.open();
  }

  stop(): void {
    this.running = false;
    this.teardown();
    this.setState('disconnected');
  }

  /** Sends a frame if the socket is authenticated; false otherwise (the caller keeps it). */
  send(frame: ClientFrame): boolean {
    if (!this.ready || !this.socket) return false;
    try {
      this.socket.send(JSON.stringify(frame));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The device says it lost the network: give the socket up now instead of waiting for
   * the heartbeat to notice, so the app shows it is offline at once.
   */
  dropNow(): void {
    if (this.running && this.socket) this.drop();
  }

  /** Skips the backoff wait, e.g. when the device comes back online. */
  reconnectNow(): void {
    if (!this.running || this.socket) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.open();
  }

  private open(): void {
    const token = this.options.getToken();
    if (!token) {
      this.end('tokenInvalid');
      return;
    }
    this.setState('connecting');
    let socket: WebSocket;
    try {
      socket = new this.options.WebSocket(this.options.url);
    } catch {
      this.lost(false);
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      socket.send(JSON.stringify({ t: 'auth', token } satisfies ClientFrame));
    };
    socket.onmessage = (event: MessageEvent) => {
      if (this.socket !== socket) return;
      this.receive(event.data);
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      const reason = END_CODES[event.code];
      if (reason) this.end(reason);
      else this.lost(this.ready);
    };
    socket.onerror = () => {
      // A close event follows; reconnecting is decided there.
    };
    this.authTimer = setTimeout(() => {
      if (this.socket === socket && !this.ready) this.drop();
    }, SOCKET_AUTH_TIMEOUT_MS + PONG_TIMEOUT_MS);
  }

  private receive(data: unknown): void {
    let decoded: unknown;
    try {
      decoded = JSON.parse(typeof data === 'string' ? data : String(data));
    } catch {
      return;
    }
    // A frame from a newer server this client does not know: ignore it.
    if (!isKnownServerFrame(decoded)) return;
    const frame: ServerFrame = decoded;
    if (frame.t === 'hello') {
      this.ready = true;
      this.helloSessionId = frame.sessionId;
      this.attempt = 0;
      if (this.authTimer) clearTimeout(this.authTimer);
      this.authTimer = null;
      this.startHeartbeat();
      this.setState('connected');
      this.options.onReady();
      return;
    }
    if (frame.t === 'pong') {
      if (this.pongTimer) clearTimeout(this.pongTimer);
      this.pongTimer = null;
      return;
    }
    if (this.ready) this.options.onFrame(frame);
  }

  private startHeartbeat(): void {
    this.pingTimer = setInterval(() => {
      if (!this.send({ t: 'ping' })) return;
      if (this.pongTimer) return;
      this.pongTimer = setTimeout(() => this.drop(), PONG_TIMEOUT_MS);
    }, HEARTBEAT_INTERVAL_MS);
  }

  /** Gives up on the current socket and reconnects. */
  private drop(): void {
    const wasReady = this.ready;
    this.lost(wasReady);
  }

  private lost(wasReady: boolean): void {
    this.teardown();
    if (!this.running) return;
    if (!wasReady) this.options.onFailed();
    this.setState('disconnected');
    // After a working connection the first retry comes soon; failures back off further.
    const delay = backoffDelay(this.attempt, this.options.random);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.running) this.open();
    }, delay);
  }

  private end(reason: EndReason): void {
    this.running = false;
    this.teardown();
    this.setState('disconnected');
    this.options.onEnd(reason);
  }

  private teardown(): void {
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    for (const timer of [this.authTimer, this.pongTimer, this.retryTimer]) {
      if (timer) clearTimeout(timer);
    }
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.authTimer = this.pongTimer = this.retryTimer = this.pingTimer = null;
    if (socket) {
      socket.onopen = null;
      socket.onmessage = null;
      socket.onclose = null;
      // Keep an error listener: some implementations (ws) throw an unhandled error event.
      socket.onerror = () => undefined;
      try {
        socket.close();
      } catch {
        // Closing a socket that never opened may throw in some implementations.
      }
    }
  }

  private setState(state: ConnectionState): void {
    if (state === this.state) return;
    this.state = state;
    this.options.onState(state);
  }
}
