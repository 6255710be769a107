import { useMemo } from 'react';
import { useFriends } from './use-contacts';

/** The user's remarks for friends, by user id: a chat is titled by the remark first. */
export function useRemarks(): ReadonlyMap<string, string | null> {
  const friends = useFriends();
  return useMemo(
    () => new Map(friends.data?.friends.map((friend) => [friend.user.id, friend.remark]) ?? []),
    [friends.data],
  );
}
