/**
 * Time limits of the HTTP server, against clients that hold connections open by sending
 * slowly or not at all (slowloris). None of them reaches an upgraded WebSocket: ws turns
 * the socket's idle timeout off, and the socket protocol has its own heartbeat.
 */
export interface ServerTimeouts {
  /** The request line and headers must arrive within this time. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this time. */
  requestTimeoutMs: number;
  /** A connection with nothing sent either way for this long is closed. */
  connectionTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** How often the server looks for requests past the first two limits. */
  checkIntervalMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  // Headers are a few hundred bytes, one round trip even on a poor mobile link; Node's
  // default (60 s) lets one client hold a connection a minute for a dozen bytes.
  headersTimeoutMs: 10_000,
  // The largest body is a 5 MiB avatar: five minutes is ~140 kbit/s, a slow mobile uplink.
  requestTimeoutMs: 300_000,
  // Longer than a handler may take before answering (a translation asked for in the
  // request waits up to three provider calls) and than the keep-alive timeout below.
  connectionTimeoutMs: 120_000,
  // Longer than the 60 s idle timeout of common load balancers, so that a proxy never
  // reuses a connection the server is closing (Fastify's default).
  keepAliveTimeoutMs: 72_000,
  // Node looks every 30 s by default, which would let a 10 s limit run to 40 s.
  checkIntervalMs: 1_000,
};
