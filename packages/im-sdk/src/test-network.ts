import type { ClientFrame, TranslateBody } from '@teltlk/protocol';
import { WebSocket } from 'ws';

/** Where a socket goes while the network is down: nothing listens, so it is refused. */
const UNREACHABLE = 'ws://127.0.0.1:1/ws';

/**
 * The device's network between its engines and the real server. It can go down, as a
 * phone's does: open sockets drop, new ones are refused and REST calls fail, until it is
 * back. It notes what crossed it: REST calls, the translation requests the server got,
 * and the frames the engines sent.
 */
export class DeviceNetwork {
  up = true;
  /** REST calls the engines made, as `METHOD /path?query` under /api/v1, in order. */
  readonly requests: string[] = [];
  /** Bodies of the translation requests that reached the server, in order. */
  readonly translateBodies: TranslateBody[] = [];
  /** Socket frames the engines sent, in order (pings left out). */
  readonly frames: ClientFrame[] = [];
  /** Every socket the engines opened, in order. */
  readonly sockets: WebSocket[] = [];
  /** While set, translation requests are answered with this error instead of reaching the server. */
  translateRefusal: { status: number; code: string } | null = null;

  /** The browser's WebSocket as the engines get it: `ws`, through this network. */
  readonly WebSocket: typeof globalThis.WebSocket;

  constructor() {
    this.WebSocket = socketsThrough(this) as unknown as typeof globalThis.WebSocket;
  }

  /** `fetch` through this network. */
  readonly fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const path = url.pathname.replace('/api/v1', '');
    const method = init?.method ?? 'GET';
    this.requests.push(`${method} ${path}${url.search}`);
    // As fetch fails with no network.
    if (!this.up) return Promise.reject(new TypeError('fetch failed'));
    if (method === 'POST' && path === '/translations') {
      const refusal = this.translateRefusal;
      if (refusal) {
        const body = { error: { code: refusal.code, message: 'refused' } };
        return Promise.resolve(
          new Response(JSON.stringify(body), {
            status: refusal.status,
            headers: { 'content-type': 'application/json' },
          }),
        );
      }
      this.translateBodies.push(JSON.parse(init?.body as string) as TranslateBody);
    }
    return fetch(input, init);
  };

  /** The network goes down: the open sockets drop as a lost link does, unclosed. */
  down(): void {
    this.up = false;
    for (const socket of this.sockets) socket.terminate();
  }
}

/** `ws` sockets that go through `network`: refused while it is down, their frames noted. */
function socketsThrough(network: DeviceNetwork): new (url: string) => WebSocket {
  return class DeviceSocket extends WebSocket {
    constructor(url: string) {
      super(network.up ? url : UNREACHABLE);
      network.sockets.push(this);
    }

    override send(data: string): void {
      const frame = JSON.parse(data) as ClientFrame;
      if (frame.t !== 'ping') network.frames.push(frame);
      super.send(data);
    }
  };
}
