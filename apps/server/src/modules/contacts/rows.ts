import type { Friend, FriendRequest, FriendRequestStatus, UserCard } from '@teltlk/protocol';
import type { FriendRequestRow, FriendshipRow } from '../../db/schema.js';

/** The contact tables' rows as the protocol shows them, with the cards of their people. */

function cardOf(cards: Map<string, UserCard>, userId: string): UserCard {
  const card = cards.get(userId);
  // Users are deleted with their requests and friendships (cascade), so a row always has both.
  if (!card) throw new Error(`no user ${userId}`);
  return card;
}

export function toRequest(row: FriendRequestRow, cards: Map<string, UserCard>): FriendRequest {
  return {
    id: row.id,
    from: cardOf(cards, row.from_user_id),
    to: cardOf(cards, row.to_user_id),
    greeting: row.greeting,
    status: row.status as FriendRequestStatus,
    createdAt: row.created_at,
    handledAt: row.handled_at,
  };
}

export function toFriend(row: FriendshipRow, cards: Map<string, UserCard>): Friend {
  return { user: cardOf(cards, row.friend_id), remark: row.remark, since: row.created_at };
}
