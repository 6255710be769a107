import { createServer } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * The baseline of the messaging benchmarks: a plain `ws` server that does only what any
 * relay must. It speaks the same handshake as the real socket (first frame
 * `{t:'auth', token}` answered by `{t:'hello'}`), so the load generator is the same for
 * both; the token is taken as the user id. For `{t:'send', rid, to, ...}` it acks the
 * sender and forwards the frame as received to the recipient's sockets. No validation,
 * no storage.
 *
 * Run as its own process: PORT and HOST from the environment; GET /healthz answers 200.
 */

// The same limits as the real socket, so a misbehaving client fails alike on both.
const FRAME_MAX_BYTES = 16 * 1024;
const AUTH_TIMEOUT_MS = 10_000;
const CLOSE_PROTOCOL = 4004;

const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';

const sockets = new Map<string, Set<WebSocket>>();

const http = createServer((request, response) => {
  response.writeHead(request.url === '/healthz' ? 200 : 404).end();
});
const wss = new WebSocketServer({ server: http, path: '/ws', maxPayload: FRAME_MAX_BYTES });

interface Frame {
  t?: unknown;
  token?: unknown;
  rid?: unknown;
  to?: unknown;
}

// Frames arrive as Buffers (the default binaryType).
function parse(data: Buffer): Frame | null {
  try {
    const value = JSON.parse(data.toString()) as Frame | null;
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

wss.on('connection', (ws) => {
  let userId: string | null = null;
  const authTimer = setTimeout(() => ws.close(CLOSE_PROTOCOL), AUTH_TIMEOUT_MS);
  ws.on('message', (data: Buffer) => {
    const frame = parse(data);
    if (!frame) return ws.close(CLOSE_PROTOCOL);
    if (userId === null) {
      if (frame.t !== 'auth' || typeof frame.token !== 'string') return ws.close(CLOSE_PROTOCOL);
      clearTimeout(authTimer);
      userId = frame.token;
      let own = sockets.get(userId);
      if (!own) sockets.set(userId, (own = new Set()));
      own.add(ws);
      ws.send(JSON.stringify({ t: 'hello', userId, sessionId: userId, now: Date.now() }));
      return;
    }
    if (frame.t === 'send' && typeof frame.rid === 'string' && typeof frame.to === 'string') {
      ws.send(JSON.stringify({ t: 'ack', rid: frame.rid }));
      // Sent as text, as it came: `ws` would send a Buffer as a binary frame.
      for (const peer of sockets.get(frame.to) ?? []) peer.send(data, { binary: false });
    } else if (frame.t === 'ping') {
      ws.send(JSON.stringify({ t: 'pong', now: Date.now() }));
    }
  });
  ws.on('close', () => {
    clearTimeout(authTimer);
    if (userId === null) return;
    const own = sockets.get(userId);
    own?.delete(ws);
    if (own?.size === 0) sockets.delete(userId);
  });
});

http.listen(port, host);
// Stops like the real server: on SIGTERM, closing every socket first.
process.once('SIGTERM', () => {
  for (const client of wss.clients) client.terminate();
  wss.close();
  http.close(() => process.exit(0));
});
