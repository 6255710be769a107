import type { Message, SendableContent, ServerFrame } from '@teltlk/protocol';
import { WebSocket, type ClientOptions } from 'ws';

/**
 * A socket client for the server's tests: buffers every frame it receives so a test can
 * wait for the next one that matches, and knows how the socket closed.
 */
export class TestSocket {
  /** Every frame received, in order. */
  readonly frames: ServerFrame[] = [];
  private unread: ServerFrame[] = [];
  private waiters: {
    match: (frame: ServerFrame) => boolean;
    resolve: (frame: ServerFrame) => void;
  }[] = [];
  private requests = 0;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as ServerFrame;
      this.frames.push(frame);
      const waiter = this.waiters.find((w) => w.match(frame));
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(frame);
      } else {
        this.unread.push(frame);
      }
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    // Connection errors show up as a close; the test asserts on that.
    ws.on('error', () => undefined);
  }

  /** Opens a socket; `options` can set headers, e.g. X-Forwarded-For to come from an address. */
  static open(url: string, options?: ClientOptions): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
    });
  }

  /** Opens and authenticates; resolves with the hello frame. */
  static async connect(url: string, token: string, options?: ClientOptions): Promise<TestSocket> {
    const socket = await TestSocket.open(url, options);
    socket.send({ t: 'auth', token });
    await socket.next((frame) => frame.t === 'hello');
    return socket;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first frame not yet taken that matches, waiting for it up to `timeoutMs`. */
  next<F extends ServerFrame>(
    match: (frame: ServerFrame) => frame is F,
    timeoutMs?: number,
  ): Promise<F>;
  next(match?: (frame: ServerFrame) => boolean, timeoutMs?: number): Promise<ServerFrame>;
  next<F extends ServerFrame>(
    match: (frame: ServerFrame) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<F> {
    const index = this.unread.findIndex(match);
    if (index >= 0) {
      const [frame] = this.unread.splice(index, 1);
      return Promise.resolve(frame as F);
    }
    return new Promise<F>((resolve, reject) => {
      const waiter = {
        match,
        resolve: (frame: ServerFrame) => {
          clearTimeout(timer);
          resolve(frame as F);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends a message over the socket; resolves with the ack's message or the error frame. */
  async sendMessage(
    conversationId: string,
    content: SendableContent | string,
    clientMsgId = `c-${Date.now().toString(36)}-${(this.requests + 1).toString(36)}x`,
  ): Promise<Message | Extract<ServerFrame, { t: 'error' }>['error']> {
    this.requests += 1;
    const rid = `r${this.requests}`;
    this.send({
      t: 'send',
      rid,
      conversationId,
      clientMsgId,
      content: typeof content === 'string' ? { kind: 'text', text: content } : content,
    });
    const answer = await this.next(
      (frame) => (frame.t === 'ack' || frame.t === 'error') && frame.rid === rid,
    );
    if (answer.t === 'ack') return answer.message;
    if (answer.t === 'error') return answer.error;
    throw new Error('unreachable');
  }

  /** Frames received so far that no `next` took. */
  pending(): ServerFrame[] {
    return [...this.unread];
  }

  close(): Promise<{ code: number; reason: string }> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) {
      this.ws.close();
    }
    return this.closed;
  }
}

/** The socket URL of an app listening on a loopback port. */
export function socketUrl(address: string | { port: number } | null): string {
  if (typeof address === 'string' || !address) throw new Error('not listening on a port');
  return `ws://127.0.0.1:${address.port}/ws`;
}
