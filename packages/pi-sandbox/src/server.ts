import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { hostPage, HOST_SCRIPT } from './host-page.js';
import { PiPlatformEmulator, type PlatformOptions } from './platform.js';

/** The browser SDK bundle, built next to this file (`npm run build`). */
const SDK_BUNDLE = fileURLToPath(new URL('./pi-sdk.js', import.meta.url));
const BODY_LIMIT = 64 * 1024;

export interface PiSandboxOptions extends Omit<PlatformOptions, 'baseUrl'> {
  port?: number;
  host?: string;
  /** The app the host page frames. */
  appUrl?: string;
}

export interface RunningPiSandbox {
  /** Origin of the sandbox: the Platform API is `${url}/v2`, the host page `${url}/`. */
  url: string;
  emulator: PiPlatformEmulator;
  close(): Promise<void>;
}

/**
 * The local Pi sandbox over HTTP: the Platform API emulator, the host page that plays the
 * Pi Browser around the app, and the SDK script the app loads inside it. Loopback only by
 * default; it stops when closed.
 */
export async function startPiSandbox(options: PiSandboxOptions): Promise<RunningPiSandbox> {
  const emulator = new PiPlatformEmulator(options);
  const server = createServer((request, response) => {
    void serve(emulator, options, request, response).catch(() => {
      if (!response.headersSent)
        send(response, 500, { error: 'internal', error_message: 'failed' });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  const url = `http://${host}:${port}`;
  emulator.baseUrl = url;
  return {
    url,
    emulator,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(
  emulator: PiPlatformEmulator,
  options: PiSandboxOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://sandbox');
  const method = request.method ?? 'GET';
  // The SDK calls from the app's page, another origin; it sends a bearer token, no cookies.
  response.setHeader('Access-Control-Allow-Origin', '*');
  response.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type');
  response.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  if (method === 'OPTIONS') {
    response.writeHead(204).end();
    return;
  }
  if (method === 'GET' && url.pathname === '/') {
    const app = url.searchParams.get('app') ?? options.appUrl ?? 'http://127.0.0.1:3000/';
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(hostPage(app));
    return;
  }
  if (method === 'GET' && url.pathname === '/host.js') {
    response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
    response.end(HOST_SCRIPT);
    return;
  }
  if (method === 'GET' && url.pathname === '/pi-sdk.js') {
    const script = await readFile(SDK_BUNDLE).catch(() => null);
    if (!script) {
      send(response, 503, { error: 'not_built', error_message: 'Run npm run build first' });
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
    response.end(script);
    return;
  }
  const body = method === 'POST' ? await readBody(request) : undefined;
  if (body === INVALID) {
    send(response, 400, { error: 'invalid_body', error_message: 'The body is not JSON' });
    return;
  }
  const stall = emulator.stall;
  if (stall && stall.path.test(url.pathname)) {
    if (stall.apply) emulator.handle(method, url.pathname, request.headers.authorization, body);
    emulator.stalled += 1;
    // No answer: the socket stays open until the caller gives up or the sandbox closes.
    return;
  }
  const answer = await emulator.serve(method, url.pathname, request.headers.authorization, body);
  send(response, answer.status, answer.body, answer.headers);
}

const INVALID = Symbol('invalid');

/** JSON, or the form fields Horizon is sent (`tx=<envelope>`). */
async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) return INVALID;
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
    return new URLSearchParams(text);
  }
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return INVALID;
  }
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}
