import {
  HOST_REQUEST,
  USER_ACTION_METHODS,
  isHostReply,
  type HostMethod,
  type HostMethods,
  type HostReply,
  type HostRequest,
} from './host-protocol.js';
import { PI_MESSAGES, PI_TIMINGS, PiSdkError } from './rules.js';

/** How requests reach the host and replies come back: window messages, or a test's pipe. */
export interface HostPort {
  post(request: HostRequest): void;
  /** Calls the listener with every reply; returns how to stop. */
  listen(listener: (reply: HostReply) => void): () => void;
}

/** The host is the parent window, of a known origin; nothing else is listened to. */
export function parentWindowPort(win: Window, hostOrigin: string): HostPort {
  return {
    post: (request) => win.parent.postMessage(request, hostOrigin),
    listen: (listener) => {
      const onMessage = (event: MessageEvent) => {
        if (event.source !== win.parent || event.origin !== hostOrigin) return;
        if (isHostReply(event.data)) listener(event.data);
      };
      win.addEventListener('message', onMessage);
      return () => win.removeEventListener('message', onMessage);
    },
  };
}

/**
 * Requests to the host with their timeouts: 60 s for what waits on the person, 120 s for
 * the rest (§8), after which the request fails with 'timeout'.
 */
export class HostChannel {
  private next = 0;
  private readonly waiting = new Map<string, (reply: HostReply) => void>();

  constructor(private readonly port: HostPort) {
    port.listen((reply) => this.waiting.get(reply.id)?.(reply));
  }

  request<M extends HostMethod>(
    method: M,
    params: HostMethods[M]['params'],
  ): Promise<HostMethods[M]['result']> {
    const id = `${Date.now().toString(36)}-${(this.next += 1)}`;
    const timeoutMs = USER_ACTION_METHODS.has(method)
      ? PI_TIMINGS.userActionTimeoutMs
      : PI_TIMINGS.hostMessageTimeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new PiSdkError(PI_MESSAGES.timeout, 'timeout'));
      }, timeoutMs);
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        if (reply.ok) resolve(reply.result as HostMethods[M]['result']);
        else reject(new PiSdkError(reply.error, reply.error));
      });
      this.port.post({ type: HOST_REQUEST, id, method, params });
    });
  }
}
