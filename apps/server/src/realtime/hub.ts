import type { ServerFrame } from '@teltlk/protocol';

/**
 * Where services hand frames for users' open sockets. Delivery is a hint: a frame for
 * a user with no socket anywhere is dropped, and clients catch up by sync. The socket
 * gateway implements it (local sockets, other nodes through the bus).
 */
export interface Hub {
  toUsers(userIds: readonly string[], frame: ServerFrame): void;
}

/** A hub with no sockets behind it: for tests of services without the gateway. */
export const silentHub: Hub = { toUsers: () => undefined };
