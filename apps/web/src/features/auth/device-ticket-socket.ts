import {
  HEARTBEAT_INTERVAL_MS,
  SOCKET_CLOSE,
  type AuthResult,
  type ServerFrame,
} from '@teltlk/protocol';

/** How waiting on a device-login ticket ends. */
export type TicketOutcome =
  | { state: 'approved'; auth: AuthResult }
  | { state: 'refused' }
  /** Ran out, was used elsewhere, or is not this browser's: show a new one. */
  | { state: 'expired' };

export interface TicketWait {
  stop(): void;
}

/** A reconnect after a dropped connection waits this long (then twice that, up to a cap). */
const RETRY_MS = 1_000;
const RETRY_MAX_MS = 15_000;

type Socketish = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
};

/**
 * Waits on the server socket for a device-login ticket to be approved, refused or to run
 * out, and calls `done` once with the outcome. The socket pings as the protocol asks, and
 * comes back after a dropped connection (an approval made meanwhile is taken then).
 */
export function waitOnTicket(
  url: string,
  ticket: { id: string; secret: string },
  done: (outcome: TicketOutcome) => void,
  open: (url: string) => Socketish = (address) => new WebSocket(address),
): TicketWait {
  let socket: Socketish | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = RETRY_MS;
  let finished = false;

  const finish = (outcome: TicketOutcome) => {
    if (finished) return;
    finished = true;
    stop();
    done(outcome);
  };

  const stop = () => {
    clearInterval(heartbeat);
    clearTimeout(retry);
    const current = socket;
    socket = null;
    if (current) {
      current.onclose = null;
      current.onmessage = null;
      current.close();
    }
  };

  const connect = () => {
    const current = open(url);
    socket = current;
    current.onopen = () => {
      delay = RETRY_MS;
      current.send(JSON.stringify({ t: 'ticket', id: ticket.id, secret: ticket.secret }));
      heartbeat = setInterval(() => {
        if (current.readyState === 1) current.send(JSON.stringify({ t: 'ping' }));
      }, HEARTBEAT_INTERVAL_MS);
    };
    current.onmessage = (event) => {
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(event.data)) as ServerFrame;
      } catch {
        return;
      }
      if (frame.t === 'signedIn') finish({ state: 'approved', auth: frame.auth });
      else if (frame.t === 'ticket') finish({ state: frame.state });
    };
    current.onclose = (event) => {
      clearInterval(heartbeat);
      if (finished || socket !== current) return;
      // Not this browser's ticket (or gone from the server): a new one is needed.
      if (event.code === SOCKET_CLOSE.tokenInvalid) return finish({ state: 'expired' });
      retry = setTimeout(connect, delay);
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    };
  };

  connect();
  return {
    stop: () => {
      finished = true;
      stop();
    },
  };
}

/** The ticket id in a scanned QR code, if it is one of this app's login links. */
export function ticketFromScan(text: string, loginPath: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const hash = url.hash.replace(/^#/, '');
  const [path, query = ''] = hash.split('?');
  if (path !== loginPath) return null;
  const ticket = new URLSearchParams(query).get('ticket');
  return ticket && /^[A-Za-z0-9_-]{1,64}$/.test(ticket) ? ticket : null;
}

/** A short code as shown: two groups of four. */
export function formatLoginCode(code: string): string {
  return code.length === 8 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}
