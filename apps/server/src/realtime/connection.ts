import {
  SOCKET_CLOSE,
  SOCKET_FRAME_MAX_BYTES,
  clientFrameSchema,
  toFieldIssues,
  type ClientFrame,
  type ServerFrame,
} from '@teltlk/protocol';
import { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppContext } from '../context.js';
import { AppError, invalidField } from '../errors.js';
import { toAppError } from '../http/errors.js';
import { nulPath } from '../http/nul.js';
import type { SessionEnd } from '../modules/auth/sessions.js';
import type { TicketOutcome } from '../modules/devices/service.js';
import { handleCallFrame, isCallFrame } from '../modules/calls/frames.js';
import { blankAware } from '../modules/messages/service.js';
import { serializeFrame } from './frames.js';
import type { SocketTimings } from './gateway.js';
import { FRAME_LIMITS, type SocketLimits, type SocketSlot } from './limits.js';
import type { LocalSocket, NodeHub } from './node-hub.js';

/** Requests one socket may have waiting; more are refused rather than queued without end. */
const MAX_PENDING_REQUESTS = 100;
const OPEN = 1;
/** WebSocket close code for an unexpected condition on the server. */
const SERVER_ERROR = 1011;
/** WebSocket close code for a socket that did what it was for (a device login ended). */
const NORMAL_CLOSURE = 1000;
/** Node fires longer timers at once; a session's expiry is farther off than this. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What every connection of one gateway shares, in one object for them all. */
export interface GatewayDeps {
  ctx: AppContext;
  hub: NodeHub;
  log: FastifyBaseLogger;
  timings: SocketTimings;
  limits: SocketLimits;
  /** Every connection of this gateway, authenticated or not (for heartbeats and shutdown). */
  connections: Set<Connection>;
}

/**
 * One client socket. Before `auth` only an auth frame is accepted; afterwards sends go to
 * the group commit as they arrive (so a client's messages get seqs in the order it sent
 * them) and are acked in that order; read marks are handled one after another in arrival
 * order, pings and typing hints at once.
 */
export class Connection implements LocalSocket {
  userId = '';
  sessionId = '';
  lastSeen = Date.now();
  private state: 'auth' | 'open' | 'closed' = 'auth';
  /** The auth frame arrived; frames after it wait in the queue until it is checked. */
  private authReceived = false;
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  private corked = false;
  /** Until the auth frame is checked; dropped then, so an open socket holds no spent timer. */
  private authTimer: NodeJS.Timeout | null;
  private expiryTimer: NodeJS.Timeout | null = null;
  /** While waiting on a device-login ticket: stops listening for its approval. */
  private stopWaiting: (() => void) | null = null;
  private ticketTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: GatewayDeps,
    /** Its place in its client address's counts; released when the TCP socket closes. */
    private readonly slot: SocketSlot,
  ) {
    this.authTimer = setTimeout(
      () => this.close(SOCKET_CLOSE.protocol, 'no auth frame in time'),
      deps.timings.authTimeoutMs,
    );
    socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    socket.on('ping', () => {
      this.lastSeen = Date.now();
    });
    socket.on('close', () => this.closed());
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  send(data: string): void {
    if (this.state === 'open' && this.socket.readyState === OPEN) this.write(data);
  }

  /**
   * Frames written in one turn of the event loop leave in one system call: a group commit
   * hands a socket its acks and pushes together, and each would otherwise be a write.
   */
  private write(data: string): void {
    if (!this.corked) {
      const raw = rawSocketOf(this.socket);
      if (raw) {
        raw.cork();
        this.corked = true;
        setImmediate(() => {
          this.corked = false;
          raw.uncork();
        });
      }
    }
    this.socket.send(data);
    // bufferedAmount is what waits in ws and in the TCP socket's write queue (corked frames
    // included). A client that stopped reading is cut off here, before it costs more; it
    // reconnects and catches up by sync.
    if (this.socket.bufferedAmount > this.deps.limits.sendQueueBytes) {
      this.deps.log.info({ userId: this.userId }, 'socket cut off: client does not read');
      this.close(SOCKET_CLOSE.slowConsumer, 'slow consumer');
    }
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.closed();
    this.socket.close(code, reason);
    const grace = setTimeout(() => this.socket.terminate(), this.deps.timings.closeGraceMs);
    grace.unref();
    this.socket.once('close', () => clearTimeout(grace));
  }

  /** The session ended while the socket was open, and no kick reached this node. */
  sessionEnded(end: SessionEnd): void {
    if (end === 'expired') this.close(SOCKET_CLOSE.tokenExpired, 'session expired');
    else this.close(SOCKET_CLOSE.kicked, 'kicked offline');
  }

  /** Drops a connection that stopped answering (no close handshake to wait for). */
  terminate(): void {
    this.closed();
    this.socket.terminate();
  }

  private closed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.stopAuthTimer();
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    if (this.ticketTimer) clearTimeout(this.ticketTimer);
    this.stopWaiting?.();
    this.deps.hub.remove(this);
    this.deps.connections.delete(this);
  }

  private stopAuthTimer(): void {
    if (this.authTimer) clearTimeout(this.authTimer);
    this.authTimer = null;
  }

  /** Closes the socket when its session expires (the clock may say later than the timer). */
  private expireAt(expiresAt: number): void {
    const delay = Math.min(Math.max(0, expiresAt - this.deps.ctx.clock.now()), MAX_TIMER_MS);
    this.expiryTimer = setTimeout(() => {
      if (this.deps.ctx.clock.now() >= expiresAt) this.sessionEnded('expired');
      else this.expireAt(expiresAt);
    }, delay);
    this.expiryTimer.unref();
  }

  private frame(frame: ServerFrame): void {
    if (this.socket.readyState === OPEN) this.write(serializeFrame(frame));
  }

  private error(rid: string | null, error: unknown): void {
    const known = toAppError(error);
    if (!known) this.deps.log.error({ err: error }, 'socket request failed');
    const { code, message, params } = known ?? new AppError('INTERNAL');
    this.frame({ t: 'error', rid, error: { code, message, ...(params ? { params } : {}) } });
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.state === 'closed') return;
    this.lastSeen = Date.now();
    // Until the auth frame, anything else breaks the protocol; afterwards errors are answered.
    const strict = !this.authReceived;
    const text = isBinary ? null : rawText(data);
    if (text === null || Buffer.byteLength(text) > SOCKET_FRAME_MAX_BYTES) {
      if (strict) return this.close(SOCKET_CLOSE.protocol, 'bad frame');
      return this.error(
        null,
        new AppError(text === null ? 'MALFORMED_REQUEST' : 'PAYLOAD_TOO_LARGE'),
      );
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      if (strict) return this.close(SOCKET_CLOSE.protocol, 'bad frame');
      return this.error(null, new AppError('MALFORMED_REQUEST'));
    }
    const parsed = clientFrameSchema.safeParse(raw);
    if (!parsed.success) {
      if (strict) return this.close(SOCKET_CLOSE.protocol, 'bad frame');
      const invalid = new AppError('VALIDATION_FAILED', undefined, toFieldIssues(parsed.error));
      return this.error(ridOf(raw), blankAware(invalid));
    }
    // As in HTTP requests: PostgreSQL text cannot hold a NUL (a translation of the text would fail).
    // JSON can only carry one escaped, so frames without that escape skip the walk.
    const nul = text.includes('\\u0000') ? nulPath(parsed.data) : null;
    if (nul !== null) {
      if (strict) return this.close(SOCKET_CLOSE.protocol, 'bad frame');
      return this.error(ridOf(raw), invalidField(nul, 'invalid'));
    }
    const frame = parsed.data;
    if (frame.t === 'auth' || frame.t === 'ticket') {
      // One auth (or ticket) frame per socket.
      if (!strict) return this.error(null, new AppError('VALIDATION_FAILED'));
      this.authReceived = true;
    } else if (strict) {
      return this.close(SOCKET_CLOSE.protocol, 'auth first');
    }
    const open = this.state === 'open';
    if (open && frame.t === 'ping') {
      this.pong().catch((error: unknown) => this.deps.log.warn({ err: error }, 'pong failed'));
      return;
    }
    if (open && frame.t === 'typing') {
      this.deps.ctx.services.messages
        .typing(this.userId, frame.conversationId)
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'typing relay failed'));
      return;
    }
    if (this.pending >= MAX_PENDING_REQUESTS) {
      return this.error(frame.t === 'send' ? frame.rid : null, new AppError('RATE_LIMITED'));
    }
    this.pending += 1;
    if (open && frame.t === 'send') {
      // Submitted at once, so that a socket's sends share group commits with each other and
      // with other sockets' (they keep their order: batches are written in submission
      // order). The ack waits its turn in the queue, so acks leave in the order sends came.
      const answer = this.deps.ctx.services.messages.send(this.userId, frame).then(
        (message) => () => this.frame({ t: 'ack', rid: frame.rid, message }),
        (error: unknown) => () => this.error(frame.rid, error),
      );
      this.queue = this.queue
        .then(() => answer)
        .then((reply) => reply())
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'socket frame failed'))
        .finally(() => {
          this.pending -= 1;
        });
      return;
    }
    this.queue = this.queue
      .then(() => this.handle(frame))
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'socket frame failed'))
      .finally(() => {
        this.pending -= 1;
      });
  }

  /**
   * A signed-out browser waits here on its device-login ticket until it is approved (it is
   * sent its new session, then the socket closes), refused or expired. It counts as
   * unauthenticated meanwhile; its pings keep it alive. Approvals on any node wake it.
   */
  private waitOnTicket(id: string, secret: string): Promise<void> {
    this.stopAuthTimer();
    // Listening before the first look, so an approval in between is not missed.
    this.stopWaiting = this.deps.hub.waitForTicket(id, () => this.lookAtTicket(id, secret));
    return this.checkTicket(id, secret);
  }

  private lookAtTicket(id: string, secret: string): void {
    this.queue = this.queue
      .then(() => this.checkTicket(id, secret))
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'ticket check failed'));
  }

  private async checkTicket(id: string, secret: string): Promise<void> {
    if (this.state !== 'auth') return;
    let outcome: TicketOutcome;
    try {
      outcome = await this.deps.ctx.services.deviceLogins.claim(id, secret);
    } catch (error) {
      if (error instanceof AppError) this.close(SOCKET_CLOSE.tokenInvalid, 'ticket invalid');
      else {
        this.deps.log.error({ err: error }, 'device login failed');
        this.close(SERVER_ERROR, 'server error');
      }
      return;
    }
    if (this.state !== 'auth') return;
    if (outcome.state === 'pending') {
      // Looked at again when it runs out, unless an approval or refusal comes first.
      if (this.ticketTimer) clearTimeout(this.ticketTimer);
      const delay = Math.max(0, outcome.expiresAt - this.deps.ctx.clock.now());
      this.ticketTimer = setTimeout(() => this.lookAtTicket(id, secret), delay);
      this.ticketTimer.unref();
      return;
    }
    if (outcome.state === 'approved') this.frame({ t: 'signedIn', auth: outcome.auth });
    else this.frame({ t: 'ticket', state: outcome.state });
    this.close(NORMAL_CLOSURE, outcome.state);
  }

  /** Answers a ping, within the pings a user may send (FRAME_LIMITS). */
  private async pong(): Promise<void> {
    const { allowed } = await this.deps.ctx.limits.attempt(FRAME_LIMITS.ping, this.userId);
    // Past the limit a ping goes unanswered: a client's heartbeat is far below it.
    if (allowed) this.frame({ t: 'pong', now: this.deps.ctx.clock.now() });
  }

  /**
   * Whether this socket's address may sign a socket in now (FRAME_LIMITS); if not, the
   * socket is closed as one too many, which the client retries later.
   */
  private async signInAllowed(frame: 'auth' | 'ticket'): Promise<boolean> {
    const { allowed } = await this.deps.ctx.limits.attempt(FRAME_LIMITS[frame], this.slot.bucket);
    if (!allowed) this.close(SOCKET_CLOSE.tooManySockets, 'too many sign-ins');
    return allowed;
  }

  private async handle(frame: ClientFrame): Promise<void> {
    if (this.state === 'closed') return;
    if (frame.t === 'ticket') {
      if (!(await this.signInAllowed('ticket'))) return;
      return this.waitOnTicket(frame.id, frame.secret);
    }
    if (frame.t !== 'auth' && this.state !== 'open') return;
    if (isCallFrame(frame)) {
      const auth = { userId: this.userId, sessionId: this.sessionId };
      const reply = (answer: ServerFrame) => this.frame(answer);
      return handleCallFrame(this.deps.ctx, auth, frame, reply, (rid, error) =>
        this.error(rid, error),
      );
    }
    const { messages, sessions } = this.deps.ctx.services;
    switch (frame.t) {
      case 'auth': {
        if (!(await this.signInAllowed('auth'))) return;
        try {
          const auth = await sessions.authenticate(frame.token);
          if (this.state !== 'auth') return;
          const open = this.deps.hub.countOf(auth.userId, auth.sessionId);
          const { perUser, perSession } = this.deps.limits;
          if (open.user >= perUser || open.session >= perSession) {
            this.close(SOCKET_CLOSE.tooManySockets, 'too many sockets');
            return;
          }
          this.stopAuthTimer();
          this.userId = auth.userId;
          this.sessionId = auth.sessionId;
          this.state = 'open';
          this.slot.authenticated();
          this.deps.hub.add(this);
          this.expireAt(auth.expiresAt);
          this.frame({
            t: 'hello',
            userId: auth.userId,
            sessionId: auth.sessionId,
            now: this.deps.ctx.clock.now(),
          });
        } catch (error) {
          const code = error instanceof AppError ? error.code : null;
          if (code === 'TOKEN_EXPIRED') this.close(SOCKET_CLOSE.tokenExpired, 'token expired');
          else if (code !== null) this.close(SOCKET_CLOSE.tokenInvalid, 'token invalid');
          else {
            this.deps.log.error({ err: error }, 'socket authentication failed');
            this.close(SERVER_ERROR, 'server error');
          }
        }
        return;
      }
      case 'send':
        try {
          const message = await messages.send(this.userId, frame);
          this.frame({ t: 'ack', rid: frame.rid, message });
        } catch (error) {
          this.error(frame.rid, error);
        }
        return;
      case 'read':
        try {
          await messages.read(this.userId, frame.conversationId, frame.seq);
        } catch (error) {
          this.error(null, error);
        }
        return;
      // Sent before the hello: answered once authenticated, in order.
      case 'ping':
        return this.frame({ t: 'pong', now: this.deps.ctx.clock.now() });
      case 'typing':
        return messages.typing(this.userId, frame.conversationId);
    }
  }
}

/**
 * The TCP socket under a WebSocket. ws keeps it in a field of its own (`_socket`); if a
 * version of ws moves it, frames simply go out one write each.
 */
function rawSocketOf(socket: WebSocket): Socket | null {
  const raw = (socket as unknown as { _socket?: unknown })._socket;
  return raw instanceof Socket ? raw : null;
}

function rawText(data: RawData): string | null {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return null;
}

/** The request id of a frame that failed validation, if it carried a usable one. */
function ridOf(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const rid = (raw as { rid?: unknown }).rid;
  return typeof rid === 'string' && rid.length > 0 && rid.length <= 64 ? rid : null;
}
