import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that stands in for a translation engine in the adapters' tests: it
 * records every request and answers with whatever handler the test set.
 */

export interface RecordedRequest {
  readonly method: string;
  /** Path and query string, e.g. `/v1/chat/completions`. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void;

export interface TestServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Every request so far, oldest first. */
  readonly requests: RecordedRequest[];
  /** Answers requests from now on with `handler`. */
  handle(handler: Handler): void;
  /** Forgets the requests so far and answers from now on with `handler`: a fresh engine for each test. */
  reset(handler: Handler): void;
  /** Requests whose path starts with `path`, e.g. how often the language list was asked. */
  count(path: string): number;
  /** Resolves once a request whose path starts with `path` has arrived (at once if one has). */
  received(path: string): Promise<void>;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const waiting: { path: string; resolve: () => void }[] = [];
  let handler = route({});
  const server = createServer((incoming: IncomingMessage, response) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (body += chunk));
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body,
      };
      requests.push(request);
      for (const waiter of waiting.filter(({ path }) => request.url.startsWith(path))) {
        waiter.resolve();
      }
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    reset(next) {
      requests.length = 0;
      handler = next;
    },
    count: (path) => requests.filter((request) => request.url.startsWith(path)).length,
    received(path) {
      if (requests.some((request) => request.url.startsWith(path))) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ path, resolve }));
    },
    close() {
      // Requests a test left unanswered on purpose would otherwise keep the server open.
      server.closeAllConnections();
      return new Promise((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A handler that sends each request to the handler of its path (query string left out); 404 otherwise. */
export function route(routes: Record<string, Handler>): Handler {
  return (request, response) => {
    const handler = routes[request.url.split('?')[0] ?? ''];
    if (handler) handler(request, response);
    else sendJson(response, 404, { error: 'Not Found' });
  };
}

/** A handler that never answers, for abort tests. */
export const neverAnswer: Handler = () => {};

/**
 * Starts `call` with a fresh signal, aborts the signal once the server holds the request
 * to `path`, and answers the call's promise (which should reject).
 */
export async function abortAt(
  server: TestServer,
  path: string,
  call: (signal: AbortSignal) => Promise<unknown>,
): Promise<unknown> {
  const controller = new AbortController();
  const pending = call(controller.signal);
  await server.received(path);
  controller.abort();
  return pending;
}

/** A URL nothing listens on: a port the system handed out, then closed again. */
export async function unreachableUrl(): Promise<string> {
  const server = await startTestServer();
  await server.close();
  return server.url;
}

/** A signal that has not aborted, for calls a test does not mean to cancel. */
export function openSignal(): AbortSignal {
  return new AbortController().signal;
}
