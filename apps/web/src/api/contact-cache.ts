import type {
  BlockListResult,
  Friend,
  FriendListResult,
  FriendRequest,
  FriendRequestListResult,
  UserEventData,
} from '@teltlk/protocol';

/** Pending applications the user has received: the contacts tab badge (spec §4). */
export function pendingReceivedCount(lists: FriendRequestListResult | undefined): number {
  return lists?.received.filter((request) => request.status === 'pending').length ?? 0;
}

function newestFirst(a: FriendRequest, b: FriendRequest): number {
  return b.createdAt - a.createdAt;
}

/**
 * Puts an application into the received or sent list, replacing the one with the same
 * id: a newer application from the same sender reuses the id (pending again), and a
 * handled one comes back with its new status. Newest first.
 */
export function upsertFriendRequest(
  lists: FriendRequestListResult,
  request: FriendRequest,
  myId: string,
): FriendRequestListResult {
  const received = lists.received.filter((item) => item.id !== request.id);
  const sent = lists.sent.filter((item) => item.id !== request.id);
  if (request.to.id === myId) received.push(request);
  else if (request.from.id === myId) sent.push(request);
  return { received: received.sort(newestFirst), sent: sent.sort(newestFirst) };
}

/** Applies a friend event of the user's stream to the friend list; other events leave it as is. */
export function applyFriendEvent(list: FriendListResult, event: UserEventData): FriendListResult {
  switch (event.type) {
    case 'friendAdded':
    case 'friendUpdated': {
      const friend: Friend = event.friend;
      const known = list.friends.some((item) => item.user.id === friend.user.id);
      return {
        friends: known
          ? list.friends.map((item) => (item.user.id === friend.user.id ? friend : item))
          : [...list.friends, friend],
      };
    }
    case 'friendRemoved':
      return { friends: list.friends.filter((item) => item.user.id !== event.userId) };
    default:
      return list;
  }
}

/** Applies a block event of the user's stream to the blacklist. */
export function applyBlockEvent(list: BlockListResult, event: UserEventData): BlockListResult {
  switch (event.type) {
    case 'blocked': {
      const rest = list.blocked.filter((user) => user.id !== event.user.id);
      return { blocked: [event.user, ...rest] };
    }
    case 'unblocked':
      return { blocked: list.blocked.filter((user) => user.id !== event.userId) };
    default:
      return list;
  }
}

/** The other person an event is about, whose profile (relation, remark, blocked) it changes. */
export function eventPersonIds(event: UserEventData, myId: string | undefined): string[] {
  switch (event.type) {
    case 'friendRequest':
      return [event.request.from.id, event.request.to.id].filter((id) => id !== myId);
    case 'friendAdded':
    case 'friendUpdated':
      return [event.friend.user.id];
    case 'friendRemoved':
    case 'unblocked':
      return [event.userId];
    case 'blocked':
      return [event.user.id];
    default:
      return [];
  }
}
