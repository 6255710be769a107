import { useQueries } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { GroupMember, UserProfile } from '@teltlk/protocol';
import { useMemo, useRef } from 'react';
import { api } from './client';
import { queryKeys } from './query-keys';
import { useRemarks } from './use-remarks';
import { useGroupMembers } from './use-groups';

/** People looked up one by one at most: a timeline names only a few at a time. */
const LOOKUPS_MAX = 40;

/** A member's name as the caller sees it: remark, group nickname, then nickname. */
export function memberName(
  member: Pick<GroupMember, 'user' | 'nickname'>,
  remarks: ReadonlyMap<string, string | null>,
): string {
  return remarks.get(member.user.id) || member.nickname || member.user.nickname;
}

export interface PersonInfo {
  name: string;
  avatarUrl: string | null;
  /** Names an @mention of them may have been typed with. */
  aliases: string[];
}

/**
 * Names and avatars of people in a group as the caller sees them: the caller's remark,
 * the member's group nickname, then the nickname. Members of the first page are known
 * at once; anyone else `ids` lists (senders, people a notice names) is looked up.
 */
export function useGroupPeople(
  groupId: string | null,
  ids: readonly string[],
): (userId: string) => PersonInfo | null {
  const remarks = useRemarks();
  const members = useGroupMembers(groupId ?? '', '', groupId !== null);
  // People seen as members stay known after they leave: their old messages keep a name.
  const seen = useRef(new Map<string, GroupMember>());
  const byId = useMemo(() => {
    const map = new Map(seen.current);
    for (const page of members.data?.pages ?? []) {
      for (const member of page.members) map.set(member.user.id, member);
    }
    seen.current = map;
    return map;
  }, [members.data]);
  const missing = useMemo(
    () => [...new Set(ids)].filter((id) => !byId.has(id)).slice(0, LOOKUPS_MAX),
    [ids, byId],
  );
  const profiles = useQueries({
    queries: missing.map((id) => ({
      queryKey: queryKeys.person(id),
      queryFn: () => api.call(routes.contacts.profile, { params: { id } }),
      staleTime: 5 * 60_000,
      enabled: members.isFetched || groupId === null,
    })),
  });
  // The results array is new every render; the times the data changed say when to rebuild.
  const version = profiles.map((query) => query.dataUpdatedAt).join(',');
  const profileById = useMemo(() => {
    const map = new Map<string, UserProfile>();
    for (const query of profiles) if (query.data) map.set(query.data.id, query.data);
    return map;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version]);

  return useMemo(() => {
    return (userId: string): PersonInfo | null => {
      const member = byId.get(userId);
      const remark = remarks.get(userId) ?? null;
      if (member) {
        const nickname = member.user.nickname;
        return {
          name: memberName(member, remarks),
          avatarUrl: member.user.avatarUrl,
          aliases: [remark, member.nickname, nickname].filter((name): name is string => !!name),
        };
      }
      const profile = profileById.get(userId);
      if (!profile) return null;
      return {
        name: remark || profile.remark || profile.nickname,
        avatarUrl: profile.avatarUrl,
        aliases: [remark, profile.remark, profile.nickname].filter(
          (name): name is string => !!name,
        ),
      };
    };
  }, [byId, profileById, remarks]);
}
