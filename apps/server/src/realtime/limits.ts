import type { ClientFrame } from '@teltlk/protocol';
import { AppError } from '../errors.js';
import { addressBucket } from '../lib/address-bucket.js';
import type { LimitName } from '../modules/limits/rules.js';

/**
 * The rate-limit class each client frame is counted in: every frame type has one (the type
 * asks for an entry per frame). Sends, read marks and typing hints are counted by the
 * messages module, as they are through REST; the gateway counts the others with these
 * names. Past a limit a sign-in closes the socket for a retry later, a ping goes
 * unanswered, a send or read is refused, a typing hint is dropped.
 */
export const FRAME_LIMITS = {
  auth: 'socketAuthPerAddress',
  ticket: 'socketAuthPerAddress',
  ping: 'pingPerUser',
  send: 'sendPerUser',
  read: 'readPerUser',
  typing: 'typingPerUser',
  callInvite: 'callInvitePerUser',
  callAccept: 'callFramePerUser',
  callReject: 'callFramePerUser',
  callCancel: 'callFramePerUser',
  callHangup: 'callFramePerUser',
  callMedia: 'callFramePerUser',
  callSignal: 'callSignalPerUser',
} as const satisfies Record<ClientFrame['t'], LimitName>;

/**
 * How much of a node one client may hold through sockets. Counts are per node: a socket
 * lives on one node, and counting across nodes would need a shared counter that outlives
 * crashed nodes, a cost out of proportion to a limit whose purpose is the node's memory.
 */
export interface SocketLimits {
  /**
   * Bytes a socket may have waiting to be sent (in ws and in its TCP socket) before it
   * is cut off as a slow consumer. They queue only once the kernel's send buffer is
   * full, so a client that reads falls this far behind only when it stopped reading.
   */
  sendQueueBytes: number;
  /** Open sockets of one session (one browser: its tabs). */
  perSession: number;
  /** Open sockets of one user, all sessions together. */
  perUser: number;
  /** Open sockets from one client address (IPv6: one /64), authenticated or not. */
  perAddress: number;
  /** Sockets from one client address that have not authenticated yet. */
  unauthenticatedPerAddress: number;
  /** Sockets that have not authenticated yet, from everywhere. */
  unauthenticated: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  // About 250 of the largest pushes (a 5,000-character CJK message is ~15 KiB of JSON),
  // thousands of usual ones: more than a busy group's burst puts in front of a client
  // that reads, and a client that stopped reading reaches it within seconds of traffic.
  sendQueueBytes: 4 * 1024 * 1024,
  // A browser's tabs share its session; past 16 tabs something is looping.
  perSession: 16,
  // Several browsers and devices at that, so a looping session leaves room for the rest.
  perUser: 64,
  // An office or a carrier's NAT puts many people behind one IPv4 address.
  perAddress: 256,
  // A socket authenticates within milliseconds of opening; this many at once from one
  // address is a reconnect wave behind a NAT, or someone holding sockets open for free.
  unauthenticatedPerAddress: 32,
  // Sockets that hold memory without an account: at the ~30 KiB an idle socket costs
  // (PERFORMANCE.md), 1,024 of them are about 30 MiB.
  unauthenticated: 1024,
};

/** A socket's place in its address's counts: held from the upgrade until the socket closes. */
export interface SocketSlot {
  /** The client address's bucket (IPv6: its /64), which per-address limits count. */
  readonly bucket: string;
  /** The socket authenticated: it no longer counts as unauthenticated. */
  authenticated(): void;
  /** The socket closed (idempotent). */
  release(): void;
}

interface Entry {
  bucket: string;
  waiting: boolean;
  released: boolean;
  /** Drops the socket (the oldest unauthenticated one makes room for a new one). */
  drop: () => void;
}

/**
 * This node's sockets per client address, counted from the HTTP upgrade on, so that a
 * socket over its address's cap is refused with a status before ws allocates anything.
 * The node-wide cap on unauthenticated sockets does not refuse: a full pool would then
 * lock everyone out while an attacker keeps it full (each of its sockets lives until the
 * auth timeout). Instead the oldest unauthenticated socket is dropped; a real client
 * authenticates long before it becomes the oldest.
 */
export class AddressSlots {
  private readonly open = new Map<string, number>();
  private readonly waitingByBucket = new Map<string, number>();
  /** Unauthenticated sockets, oldest first (a Set keeps insertion order). */
  private readonly waiting = new Set<Entry>();

  constructor(private readonly limits: SocketLimits) {}

  /** Counts a new socket from `address`, or throws TOO_MANY_CONNECTIONS. */
  take(address: string, drop: () => void): SocketSlot {
    const bucket = addressBucket(address);
    const open = this.open.get(bucket) ?? 0;
    const waiting = this.waitingByBucket.get(bucket) ?? 0;
    if (open >= this.limits.perAddress || waiting >= this.limits.unauthenticatedPerAddress) {
      throw new AppError('TOO_MANY_CONNECTIONS');
    }
    while (this.waiting.size >= this.limits.unauthenticated) {
      const oldest = this.waiting.values().next().value;
      if (!oldest) break;
      this.settle(oldest);
      oldest.drop();
    }
    const entry: Entry = { bucket, waiting: true, released: false, drop };
    this.open.set(bucket, open + 1);
    this.waitingByBucket.set(bucket, waiting + 1);
    this.waiting.add(entry);
    return {
      bucket,
      authenticated: () => this.settle(entry),
      release: () => {
        if (entry.released) return;
        entry.released = true;
        this.settle(entry);
        decrement(this.open, bucket);
      },
    };
  }

  /** Sockets counted for an address now: open in all, and of those unauthenticated. */
  countOf(address: string): { open: number; unauthenticated: number } {
    const bucket = addressBucket(address);
    return {
      open: this.open.get(bucket) ?? 0,
      unauthenticated: this.waitingByBucket.get(bucket) ?? 0,
    };
  }

  /** Unauthenticated sockets on this node. */
  get unauthenticated(): number {
    return this.waiting.size;
  }

  private settle(entry: Entry): void {
    if (!entry.waiting) return;
    entry.waiting = false;
    this.waiting.delete(entry);
    decrement(this.waitingByBucket, entry.bucket);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 0) - 1;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}
