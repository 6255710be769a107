import { randomBytes } from 'node:crypto';
import type { ServerFrame } from '@teltlk/protocol';
import type { Audience } from './hub.js';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** Which sockets a kick closes: one session, or every session of a user but one. */
export interface Kick {
  userId: string;
  /** Only this session. */
  sessionId?: string;
  /** Every session of the user except this one (when sessionId is not given). */
  except?: string;
}

/**
 * What nodes tell each other: frames for users' sockets, frames for the online members of
 * a group conversation (each node picks its own members), and sessions to close.
 */
export type BusMessage =
  | { type: 'frame'; userIds: string[]; frame: ServerFrame }
  | { type: 'members'; conversationId: string; frames: ServerFrame[]; audience?: Audience }
  | { type: 'kick'; kick: Kick }
  /** A device-login ticket was approved or refused: wake the socket waiting on it. */
  | { type: 'ticket'; id: string };

interface Envelope {
  /** The node that published it: a node ignores its own, it delivered them already. */
  origin: string;
  message: BusMessage;
}

/**
 * Carries messages between server nodes. Every node receives every message (one channel)
 * and delivers to its own sockets; the publisher's node has delivered locally already, so
 * `onMessage` never sees a node's own messages.
 */
export interface Bus {
  /** This node's id, unique per process. */
  readonly nodeId: string;
  /** Resolves once the bus receives messages. */
  ready(): Promise<void>;
  publish(message: BusMessage): void;
  onMessage(handler: (message: BusMessage) => void): void;
  close(): Promise<void>;
}

function newNodeId(): string {
  return randomBytes(8).toString('hex');
}

/**
 * Nodes in one process. With one node (the default) nothing goes anywhere; tests join
 * several contexts by sharing one `InProcessNetwork`.
 */
export class InProcessNetwork {
  private readonly buses = new Set<InProcessBus>();

  join(bus: InProcessBus): void {
    this.buses.add(bus);
  }

  leave(bus: InProcessBus): void {
    this.buses.delete(bus);
  }

  send(envelope: Envelope): void {
    for (const bus of this.buses) bus.receive(envelope);
  }
}

export class InProcessBus implements Bus {
  readonly nodeId = newNodeId();
  private handler: ((message: BusMessage) => void) | null = null;

  constructor(private readonly network = new InProcessNetwork()) {
    network.join(this);
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  publish(message: BusMessage): void {
    // Asynchronous like a real bus, so no caller depends on delivery order within a tick.
    const envelope: Envelope = { origin: this.nodeId, message };
    queueMicrotask(() => this.network.send(envelope));
  }

  onMessage(handler: (message: BusMessage) => void): void {
    this.handler = handler;
  }

  receive(envelope: Envelope): void {
    if (envelope.origin !== this.nodeId) this.handler?.(envelope.message);
  }

  close(): Promise<void> {
    this.network.leave(this);
    return Promise.resolve();
  }
}

/** The channel every node publishes to and subscribes on. */
export const REDIS_CHANNEL = 'teltlk:hub';

/**
 * Redis pub/sub: one connection publishes, one subscribes (a subscribed connection can
 * do nothing else). Messages published while Redis is unreachable wait in ioredis's
 * offline queue; pushes are hints, so what is lost with a Redis restart is caught up by
 * clients' sync.
 */
export class RedisBus implements Bus {
  readonly nodeId = newNodeId();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<void>;
  private handler: ((message: BusMessage) => void) | null = null;

  constructor(
    url: string,
    private readonly logger: Logger,
  ) {
    this.publisher = new Redis(url, { lazyConnect: false });
    this.subscriber = new Redis(url, { lazyConnect: false });
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (error: Error) =>
        this.logger.warn({ err: error }, 'redis bus connection error'),
      );
    }
    this.subscriber.on('message', (_channel: string, raw: string) => this.receive(raw));
    this.subscribed = this.subscriber.subscribe(REDIS_CHANNEL).then(() => undefined);
    // Keep the rejection observed until someone awaits ready().
    this.subscribed.catch(() => undefined);
  }

  ready(): Promise<void> {
    return this.subscribed;
  }

  publish(message: BusMessage): void {
    const envelope: Envelope = { origin: this.nodeId, message };
    this.publisher
      .publish(REDIS_CHANNEL, JSON.stringify(envelope))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'redis bus publish failed'));
  }

  onMessage(handler: (message: BusMessage) => void): void {
    this.handler = handler;
  }

  private receive(raw: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(raw) as Envelope;
    } catch {
      this.logger.warn('redis bus: unreadable message');
      return;
    }
    if (envelope.origin === this.nodeId) return;
    try {
      this.handler?.(envelope.message);
    } catch (error) {
      this.logger.error({ err: error }, 'redis bus: delivery failed');
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.subscriber, this.publisher].map((connection) =>
        connection.quit().then(
          () => undefined,
          () => connection.disconnect(),
        ),
      ),
    );
  }
}

/** Redis pub/sub when a URL is configured, otherwise the in-process bus. */
export function createBus(redisUrl: string | null, logger: Logger): Bus {
  return redisUrl ? new RedisBus(redisUrl, logger) : new InProcessBus();
}
