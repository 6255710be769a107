import websocket from '@fastify/websocket';
import {
  HEARTBEAT_INTERVAL_MS,
  SOCKET_AUTH_TIMEOUT_MS,
  SOCKET_CLOSE,
  SOCKET_FRAME_MAX_BYTES,
} from '@teltlk/protocol';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../context.js';
import { handleNotFound } from '../http/errors.js';
import type { App } from '../http/types.js';
import { Connection, type GatewayDeps } from './connection.js';
import { AddressSlots, type SocketSlot } from './limits.js';

/** Timers of the socket protocol; tests shorten them. */
export interface SocketTimings {
  /** The first frame must be `auth` within this time. */
  authTimeoutMs: number;
  /** Clients ping this often; a socket silent for 2.5 intervals is dropped. */
  heartbeatIntervalMs: number;
  /**
   * How often each node checks, in one batched query, that the sessions of its open
   * sockets are still live: a socket whose kick the bus lost closes within this time.
   */
  sessionCheckIntervalMs: number;
  /** A socket the server closes is dropped if the client has not answered the close by then. */
  closeGraceMs: number;
}

export const DEFAULT_SOCKET_TIMINGS: SocketTimings = {
  authTimeoutMs: SOCKET_AUTH_TIMEOUT_MS,
  heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
  // One query per 500 sessions of the node twice a minute, for a kick that was lost.
  sessionCheckIntervalMs: 30_000,
  // ws waits 30 s for the answer; a client that stopped reading would hold its queue that long.
  closeGraceMs: 5_000,
};

/** A socket silent for this many heartbeat intervals is gone. */
const SILENCE_INTERVALS = 2.5;
/**
 * ws itself drops a connection whose frame exceeds this; frames between the protocol's
 * limit and this get an error frame and the socket stays open.
 */
const HARD_FRAME_LIMIT_BYTES = SOCKET_FRAME_MAX_BYTES * 4;

/**
 * Lets go of the HTTP request a socket was upgraded from, which would otherwise live as
 * long as the socket (a few kilobytes each: headers, the request and reply objects, a
 * child logger), through two holders: the response the upgrade was routed with stays
 * attached to the TCP socket, and the plugin's error listener on the WebSocket closes
 * over the request and reply. The response is detached, and that listener replaced by
 * one that holds nothing of the request.
 */
function forgetUpgradeRequest(
  socket: WebSocket,
  request: IncomingMessage,
  response: ServerResponse,
  log: FastifyBaseLogger,
): void {
  if (request.socket) response.detachSocket(request.socket);
  socket.removeAllListeners('error');
  socket.on('error', (error) => {
    // Broken clients (oversized frames, bad frames) are theirs, not the server's, to fix.
    log.debug({ err: error }, 'socket error');
    socket.terminate();
  });
}

/**
 * The socket endpoint `/ws`: authenticated by its first frame, kept alive by pings,
 * closed with 1001 when the server shuts down. Sockets are counted per client address
 * from the upgrade on and per user once authenticated (see `SocketLimits`).
 */
export async function gatewayRoutes(app: App, ctx: AppContext): Promise<void> {
  const hub = ctx.hub;
  const timings = ctx.socketTimings;
  const limits = ctx.socketLimits;
  const connections = new Set<Connection>();
  const slots = new AddressSlots(limits);
  /** What the upgrade of a request needs from its hooks: its slot, and its response. */
  const upgrades = new WeakMap<IncomingMessage, { slot: SocketSlot; response: ServerResponse }>();
  // One set of dependencies for every connection: a socket holds no logger or object of
  // its own for them (idle sockets are most of a chat server's memory).
  const deps: GatewayDeps = { ctx, hub, log: ctx.logger, timings, limits, connections };
  await hub.ready();

  await app.register(websocket, {
    options: { maxPayload: HARD_FRAME_LIMIT_BYTES },
    errorHandler: (error, socket, request) => {
      // Broken clients (oversized frames, bad handshakes) are theirs, not the server's, to fix.
      request.log.debug({ err: error }, 'socket error');
      socket.terminate();
    },
    preClose(done) {
      for (const connection of [...connections]) {
        connection.close(SOCKET_CLOSE.goingAway, 'server shutting down');
      }
      this.websocketServer.close(() => done());
    },
  });

  const silence = timings.heartbeatIntervalMs * SILENCE_INTERVALS;
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - silence;
      for (const connection of [...connections]) {
        if (connection.lastSeen < cutoff) connection.terminate();
      }
    },
    Math.max(10, Math.floor(timings.heartbeatIntervalMs / 2)),
  );
  sweep.unref();

  // Kicks travel on the bus, which may lose them (a Redis reconnect, a node that was
  // briefly away): each node also asks the database about its own sockets' sessions.
  let checking: Promise<void> | null = null;
  const checkSessions = async () => {
    const open = [...connections].filter((connection) => connection.isOpen);
    if (open.length === 0) return;
    const ended = await ctx.services.sessions.ended([
      ...new Set(open.map((connection) => connection.sessionId)),
    ]);
    for (const connection of open) {
      const end = ended.get(connection.sessionId);
      if (end) connection.sessionEnded(end);
    }
  };
  const sessionCheck = setInterval(() => {
    checking ??= checkSessions()
      .catch((error: unknown) => ctx.logger.warn({ err: error }, 'socket session check failed'))
      .finally(() => {
        checking = null;
      });
  }, timings.sessionCheckIntervalMs);
  sessionCheck.unref();

  app.addHook('onClose', async () => {
    clearInterval(sweep);
    clearInterval(sessionCheck);
    await checking;
  });

  app.route({
    method: 'GET',
    url: '/ws',
    schema: { hide: true },
    // Counted before the upgrade, so a socket over its address's caps is refused with a
    // status before ws sets anything up for it; the count ends with the TCP socket.
    onRequest: (request, reply, done) => {
      if (!request.ws) return done();
      const tcp = request.raw.socket;
      try {
        const slot = slots.take(request.ip, () => tcp.destroy());
        tcp.once('close', () => slot.release());
        // Gone while its headers were read: its close may have passed already.
        if (tcp.destroyed) slot.release();
        upgrades.set(request.raw, { slot, response: reply.raw });
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    // A plain GET (no upgrade) is answered like an unknown path, in the API's error shape.
    handler: handleNotFound,
    wsHandler: (socket, request) => {
      const upgrade = upgrades.get(request.raw);
      upgrades.delete(request.raw);
      if (!upgrade) return socket.terminate();
      forgetUpgradeRequest(socket, request.raw, upgrade.response, deps.log);
      connections.add(new Connection(socket, deps, upgrade.slot));
    },
  });
}
