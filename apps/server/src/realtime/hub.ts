import type { ServerFrame } from '@teltlk/protocol';

/**
 * Where services hand frames for users' open sockets. Delivery is a hint: a frame for
 * a user with no socket anywhere is dropped, and clients catch up by sync. The socket
 * gateway implements it (local sockets, other nodes through the bus).
 */
export interface Hub {
  toUsers(userIds: readonly string[], frame: ServerFrame): void;
}

/**
 * Some of a conversation's members: those who read it translated into `lang`, but for
 * `except` (a translation's own sender, who never gets one of their message).
 */
export interface Audience {
  lang: string;
  except?: string;
}

/** A hub that also reaches the online members of group conversations. */
export interface MemberHub extends Hub {
  /**
   * Frames for the members of a group conversation who are online (with an audience,
   * only those in it): each node asks which of its own connected users are members, so
   * no one loads a whole member list.
   */
  toOnlineMembers(
    conversationId: string,
    frames: readonly ServerFrame[],
    audience?: Audience,
  ): void;
}

/** A hub with no sockets behind it: for tests of services without the gateway. */
export const silentHub: MemberHub = { toUsers: () => undefined, toOnlineMembers: () => undefined };
