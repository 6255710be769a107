import { SOCKET_CLOSE } from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  formatLoginCode,
  ticketFromScan,
  waitOnTicket,
  type TicketOutcome,
} from './device-ticket-socket';

class FakeSocket {
  static opened: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) } as MessageEvent);
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

describe('waiting on a device-login ticket', () => {
  const ticket = { id: 'T1', secret: 'S1' };
  let outcomes: TicketOutcome[];
  const start = () =>
    waitOnTicket(
      'ws://app/ws',
      ticket,
      (outcome) => outcomes.push(outcome),
      (url) => new FakeSocket(url),
    );

  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.opened = [];
    outcomes = [];
  });
  afterEach(() => vi.useRealTimers());

  it('sends the ticket first, pings, and ends with the session once approved', () => {
    start();
    const socket = FakeSocket.opened[0]!;
    socket.open();
    expect(socket.sent).toEqual([{ t: 'ticket', id: 'T1', secret: 'S1' }]);
    vi.advanceTimersByTime(25_000);
    expect(socket.sent.at(-1)).toEqual({ t: 'ping' });
    const auth = { token: 'tok', expiresAt: 1, user: {}, settings: {} };
    socket.receive({ t: 'signedIn', auth });
    expect(outcomes).toEqual([{ state: 'approved', auth }]);
    expect(socket.closed).toBe(true);
  });

  it('reconnects after a dropped connection and keeps waiting', () => {
    start();
    FakeSocket.opened[0]!.open();
    FakeSocket.opened[0]!.drop(1006);
    expect(FakeSocket.opened).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.opened).toHaveLength(2);
    FakeSocket.opened[1]!.open();
    FakeSocket.opened[1]!.receive({ t: 'ticket', state: 'refused' });
    expect(outcomes).toEqual([{ state: 'refused' }]);
  });

  it('asks for a new ticket when the server does not know this one', () => {
    start();
    FakeSocket.opened[0]!.open();
    FakeSocket.opened[0]!.drop(SOCKET_CLOSE.tokenInvalid);
    expect(outcomes).toEqual([{ state: 'expired' }]);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.opened).toHaveLength(1);
  });

  it('stops without an outcome when the page goes', () => {
    const wait = start();
    FakeSocket.opened[0]!.open();
    wait.stop();
    expect(FakeSocket.opened[0]!.closed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.opened).toHaveLength(1);
    expect(outcomes).toEqual([]);
  });
});

describe('scanned login links', () => {
  const path = '/pages/login/mobiledevice';
  it('reads the ticket of a login link, whatever the host', () => {
    expect(ticketFromScan(`https://teltlk.example/#${path}?ticket=abc123`, path)).toBe('abc123');
    expect(ticketFromScan(` http://localhost:3000/#${path}?ticket=X_y-1 `, path)).toBe('X_y-1');
  });
  it('refuses anything else', () => {
    expect(ticketFromScan('hello', path)).toBeNull();
    expect(ticketFromScan(`https://a.example/#/pages/user/user?ticket=abc`, path)).toBeNull();
    expect(ticketFromScan(`https://a.example/#${path}`, path)).toBeNull();
    expect(ticketFromScan(`https://a.example/#${path}?ticket=a%20b`, path)).toBeNull();
  });
  it('shows a code in two groups of four', () => {
    expect(formatLoginCode('ABCD2345')).toBe('ABCD-2345');
  });
});
