import { SOCKET_CLOSE, type ServerFrame } from '@teltlk/protocol';
import { frameFor, type Reader } from '../modules/messages/visibility.js';
import type { Bus, BusMessage, Kick } from './bus.js';
import { serializeFrame } from './frames.js';
import type { Audience, MemberHub } from './hub.js';
import type { SessionPresence } from './presence.js';

/** An authenticated socket on this node, as the hub sees it. */
export interface LocalSocket {
  readonly userId: string;
  readonly sessionId: string;
  /** Sends an already serialized server frame. */
  send(data: string): void;
  close(code: number, reason: string): void;
}

/**
 * Which of these users are members of a conversation (in the audience, if one is given),
 * each with the point their history starts after and the language they read it in.
 */
export type MemberFilter = (
  conversationId: string,
  userIds: readonly string[],
  audience?: Audience,
) => Promise<Reader[]>;

/**
 * Told which of its users a node delivered a group conversation's frames to, as the
 * member look-up found them (so their languages need no second look-up).
 */
export type MembersReached = (
  conversationId: string,
  frames: readonly ServerFrame[],
  readers: readonly Reader[],
) => void;

/**
 * The hub of one server node: a registry of the sockets open on this node, and the bus
 * to the others. A frame is delivered to local sockets at once and published once on the
 * bus; other nodes deliver it to theirs, and the bus never hands a node its own frames,
 * so no socket gets a frame twice.
 */
export class NodeHub implements MemberHub {
  private readonly byUser = new Map<string, Set<LocalSocket>>();
  private memberFilter: MemberFilter | null = null;
  private readonly reachedListeners: MembersReached[] = [];
  /** Marks of this node's sessions for the other nodes (with Redis); null on one node. */
  private presence: SessionPresence | null = null;
  /** Sockets of this node waiting on a device-login ticket, by ticket id. */
  private readonly ticketWaiters = new Map<string, Set<() => void>>();

  constructor(private readonly bus: Bus) {
    bus.onMessage((message) => this.deliver(message));
  }

  /** Shares which sessions have sockets here with the other nodes. */
  setPresence(presence: SessionPresence): void {
    this.presence = presence;
  }

  /** The sessions that have a socket open on this node. */
  *localSessions(): Iterable<string> {
    const seen = new Set<string>();
    for (const sockets of this.byUser.values()) {
      for (const socket of sockets) {
        if (seen.has(socket.sessionId)) continue;
        seen.add(socket.sessionId);
        yield socket.sessionId;
      }
    }
  }

  /** Set once the database is open: group frames are dropped until then. */
  setMemberFilter(filter: MemberFilter): void {
    this.memberFilter = filter;
  }

  /** Called after each delivery of group frames (not audience ones) to this node's members. */
  onMembersReached(listener: MembersReached): void {
    this.reachedListeners.push(listener);
  }

  /** Resolves once frames from other nodes arrive. */
  ready(): Promise<void> {
    return this.bus.ready();
  }

  add(socket: LocalSocket): void {
    let sockets = this.byUser.get(socket.userId);
    if (!sockets) {
      sockets = new Set();
      this.byUser.set(socket.userId, sockets);
    }
    if (this.presence && this.countOf(socket.userId, socket.sessionId).session === 0) {
      this.presence.mark(socket.sessionId);
    }
    sockets.add(socket);
  }

  remove(socket: LocalSocket): void {
    const sockets = this.byUser.get(socket.userId);
    if (!sockets) return;
    if (!sockets.delete(socket)) return;
    if (sockets.size === 0) this.byUser.delete(socket.userId);
    if (this.countOf(socket.userId, socket.sessionId).session === 0) {
      this.presence?.unmark(socket.sessionId);
      for (const listener of [...this.goneListeners]) listener(socket.userId, socket.sessionId);
    }
  }

  /** Calls `listener` when a session's last socket on this node closes. */
  onSessionGone(listener: (userId: string, sessionId: string) => void): () => void {
    this.goneListeners.add(listener);
    return () => this.goneListeners.delete(listener);
  }

  private readonly goneListeners = new Set<(userId: string, sessionId: string) => void>();

  /** This node's open sockets of a user, and of those the ones of one session. */
  countOf(userId: string, sessionId: string): { user: number; session: number } {
    const sockets = this.byUser.get(userId);
    let session = 0;
    for (const socket of sockets ?? []) if (socket.sessionId === sessionId) session += 1;
    return { user: sockets?.size ?? 0, session };
  }

  /**
   * Whether a device (session) has a socket open. This node's own sockets are asked
   * first; across nodes, the presence marks each node keeps in Redis (see `presence`).
   */
  async isSessionOnline(userId: string, sessionId: string): Promise<boolean> {
    if (this.countOf(userId, sessionId).session > 0) return true;
    return this.presence ? this.presence.isOnline(sessionId) : false;
  }

  /** How many sockets are open on this node. */
  get size(): number {
    let count = 0;
    for (const sockets of this.byUser.values()) count += sockets.size;
    return count;
  }

  toUsers(userIds: readonly string[], frame: ServerFrame): void {
    if (userIds.length === 0) return;
    const unique = [...new Set(userIds)];
    this.deliverFrame(unique, frame);
    this.bus.publish({ type: 'frame', userIds: unique, frame });
  }

  toOnlineMembers(
    conversationId: string,
    frames: readonly ServerFrame[],
    audience?: Audience,
  ): void {
    if (frames.length === 0) return;
    // A big group's pushes are a member look-up and thousands of socket writes: the
    // senders' acks, settled in this same turn, leave first. A socket written to flushes
    // in a setImmediate callback set at its first write (Connection.write), which comes
    // after this call. So the pushes wait two setImmediate hops: the first runs before
    // the acks' flushes, the second after them, whichever phase of the event loop this
    // turn is (a timer would not do: when the group commit runs in the check phase, the
    // next loop's timers come before the acks' flushes). Group frames keep their order:
    // setImmediate callbacks run in the order they were set.
    setImmediate(() => setImmediate(() => this.deliverToMembers(conversationId, frames, audience)));
    this.bus.publish({
      type: 'members',
      conversationId,
      frames: [...frames],
      ...(audience ? { audience } : {}),
    });
  }

  /** Closes the matching sockets on every node as kicked offline. */
  kick(kick: Kick): void {
    this.kickLocal(kick);
    this.bus.publish({ type: 'kick', kick });
  }

  /** Wakes the sockets waiting on a device-login ticket, on every node. */
  ticketChanged(id: string): void {
    this.wakeTicket(id);
    this.bus.publish({ type: 'ticket', id });
  }

  /** Calls `wake` when the ticket changes; the returned function stops waiting. */
  waitForTicket(id: string, wake: () => void): () => void {
    let waiters = this.ticketWaiters.get(id);
    if (!waiters) {
      waiters = new Set();
      this.ticketWaiters.set(id, waiters);
    }
    waiters.add(wake);
    return () => {
      const current = this.ticketWaiters.get(id);
      current?.delete(wake);
      if (current?.size === 0) this.ticketWaiters.delete(id);
    };
  }

  /** Closes every socket of this node (shutdown). */
  closeAll(code: number, reason: string): void {
    for (const sockets of [...this.byUser.values()]) {
      for (const socket of [...sockets]) socket.close(code, reason);
    }
  }

  private deliver(message: BusMessage): void {
    if (message.type === 'frame') this.deliverFrame(message.userIds, message.frame);
    else if (message.type === 'members') {
      this.deliverToMembers(message.conversationId, message.frames, message.audience);
    } else if (message.type === 'ticket') this.wakeTicket(message.id);
    else this.kickLocal(message.kick);
  }

  private wakeTicket(id: string): void {
    for (const wake of [...(this.ticketWaiters.get(id) ?? [])]) wake();
  }

  /**
   * Membership is read after the change that caused the frames has committed, so a member
   * removed before it gets nothing, on any device, and one who joined after a message was
   * written (or cleared the history since) gets nothing of it.
   */
  private deliverToMembers(
    conversationId: string,
    frames: readonly ServerFrame[],
    audience?: Audience,
  ): void {
    const filter = this.memberFilter;
    if (!filter || this.byUser.size === 0) return;
    filter(conversationId, [...this.byUser.keys()], audience).then(
      (readers) => {
        const reached = this.deliverToReaders(readers, frames);
        if (audience || reached.length === 0) return;
        for (const listener of this.reachedListeners) listener(conversationId, frames, reached);
      },
      // Pushes are hints; clients catch up by sync.
      () => undefined,
    );
  }

  /**
   * Each frame to each reader as far as their history goes (frameFor); readers given the
   * same view of a frame share its one serialization. Answers who got anything.
   */
  private deliverToReaders(readers: readonly Reader[], frames: readonly ServerFrame[]): Reader[] {
    const reached = new Set<Reader>();
    for (const frame of frames) {
      const byView = new Map<ServerFrame, string[]>();
      for (const reader of readers) {
        const view = frameFor(frame, reader.minSeq);
        if (view === null) continue;
        const userIds = byView.get(view);
        if (userIds) userIds.push(reader.userId);
        else byView.set(view, [reader.userId]);
        reached.add(reader);
      }
      for (const [view, userIds] of byView) this.deliverFrame(userIds, view);
    }
    return [...reached];
  }

  private deliverFrame(userIds: readonly string[], frame: ServerFrame): void {
    let data: string | null = null;
    for (const userId of userIds) {
      const sockets = this.byUser.get(userId);
      if (!sockets) continue;
      data ??= serializeFrame(frame);
      for (const socket of sockets) socket.send(data);
    }
  }

  private kickLocal(kick: Kick): void {
    const sockets = this.byUser.get(kick.userId);
    if (!sockets) return;
    for (const socket of [...sockets]) {
      const hit =
        kick.sessionId !== undefined
          ? socket.sessionId === kick.sessionId
          : socket.sessionId !== kick.except;
      if (hit) socket.close(SOCKET_CLOSE.kicked, 'kicked offline');
    }
  }
}
