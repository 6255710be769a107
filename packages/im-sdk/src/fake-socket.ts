import type { ClientFrame, ServerFrame } from '@teltlk/protocol';

/**
 * A stand-in for the browser's WebSocket in tests: records what the client sends and
 * lets the test play the server.
 */
export class FakeSocket {
  static instances: FakeSocket[] = [];
  static onCreate: ((socket: FakeSocket) => void) | null = null;

  static reset(): void {
    FakeSocket.instances = [];
    FakeSocket.onCreate = null;
  }

  static get last(): FakeSocket {
    const socket = FakeSocket.instances.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  readyState = 0;
  sent: ClientFrame[] = [];
  closedByClient = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
    FakeSocket.onCreate?.(this);
  }

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('socket is not open');
    const frame = JSON.parse(data) as ClientFrame;
    this.sent.push(frame);
    this.onClientFrame?.(frame);
  }

  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.closedByClient = true;
  }

  /** Set by a test that plays the server. */
  onClientFrame: ((frame: ClientFrame) => void) | null = null;

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  /** Delivers a frame from the server, asynchronously as a real socket does. */
  receive(frame: ServerFrame): void {
    const data = JSON.stringify(frame);
    queueMicrotask(() => {
      if (this.readyState === 1) this.onmessage?.({ data });
    });
  }

  /** Delivers a frame at once, for tests that step through the protocol by hand. */
  receiveNow(frame: ServerFrame): void {
    if (this.readyState === 1) this.onmessage?.({ data: JSON.stringify(frame) });
  }

  /** The server (or the network) closes the socket. */
  drop(code = 1006): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code });
  }

  get isOpen(): boolean {
    return this.readyState === 1;
  }
}

export const FakeWebSocket = FakeSocket as unknown as typeof WebSocket;
