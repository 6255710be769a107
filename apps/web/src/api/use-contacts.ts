import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { BlockListResult, FriendListResult, UserProfile } from '@teltlk/protocol';
import { api } from './client';
import { queryKeys } from './query-keys';
import { useAuthStore } from '../app/auth-store';
import { useUserEvents } from '../app/user-events';
import { applyBlockEvent, applyFriendEvent } from './contact-cache';
import { applyUserEvent, refreshPeople, storeRequest } from './contact-events';

function useSignedIn(): boolean {
  return useAuthStore((state) => state.token !== null);
}

export function useFriendRequests(options: { refetchOnMount?: 'always' } = {}) {
  return useQuery({
    queryKey: queryKeys.friendRequests(),
    queryFn: () => api.call(routes.contacts.friendRequests),
    enabled: useSignedIn(),
    ...options,
  });
}

export function useFriends() {
  return useQuery({
    queryKey: queryKeys.friends(),
    queryFn: () => api.call(routes.contacts.friends),
    enabled: useSignedIn(),
  });
}

export function useBlocks() {
  return useQuery({
    queryKey: queryKeys.blocks(),
    queryFn: () => api.call(routes.contacts.blocks),
    enabled: useSignedIn(),
  });
}

export function useOfficialAccounts() {
  return useQuery({
    queryKey: queryKeys.officialAccounts(),
    queryFn: () => api.call(routes.contacts.officialAccounts),
    enabled: useSignedIn(),
  });
}

/** Another user as the caller sees them; `userId` null (a bad link) loads nothing. */
export function usePerson(userId: string | null) {
  return useQuery({
    queryKey: queryKeys.person(userId ?? ''),
    queryFn: () => api.call(routes.contacts.profile, { params: { id: userId ?? '' } }),
    enabled: useSignedIn() && userId !== null,
  });
}

/** Keeps friend, application and block data fresh from the live event stream. */
export function useContactEvents(): void {
  const queryClient = useQueryClient();
  useUserEvents((event) => applyUserEvent(queryClient, event));
}

export function useSendFriendRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    /** `groupId`: made from that group's member list, where its private chat applies. */
    mutationFn: ({ groupId, ...body }: { userId: string; greeting?: string; groupId?: string }) =>
      groupId
        ? api.call(routes.groups.requestFriend, {
            params: { id: groupId, userId: body.userId },
            body: { greeting: body.greeting },
          })
        : api.call(routes.contacts.sendFriendRequest, { body }),
    onSuccess: (request) => storeRequest(queryClient, request),
  });
}

/** Accepts or rejects a received application. */
export function useAnswerFriendRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, accept }: { id: string; accept: boolean }) =>
      api.call(accept ? routes.contacts.acceptFriendRequest : routes.contacts.rejectFriendRequest, {
        params: { id },
      }),
    onSuccess: (request) => {
      storeRequest(queryClient, request);
      if (request.status === 'agreed') {
        void queryClient.invalidateQueries({ queryKey: queryKeys.friends() });
      }
      refreshPeople(queryClient, [request.from.id]);
    },
  });
}

export function useUpdateRemark() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, remark }: { userId: string; remark: string | null }) =>
      api.call(routes.contacts.updateFriend, { params: { id: userId }, body: { remark } }),
    onSuccess: (friend) => {
      queryClient.setQueryData<FriendListResult>(queryKeys.friends(), (list) =>
        list ? applyFriendEvent(list, { type: 'friendUpdated', friend }) : list,
      );
      queryClient.setQueryData<UserProfile>(queryKeys.person(friend.user.id), (person) =>
        person ? { ...person, remark: friend.remark } : person,
      );
    },
  });
}

export function useDeleteFriend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api.call(routes.contacts.deleteFriend, { params: { id: userId } }),
    onSuccess: (_result, userId) => {
      queryClient.setQueryData<FriendListResult>(queryKeys.friends(), (list) =>
        list ? applyFriendEvent(list, { type: 'friendRemoved', userId }) : list,
      );
      refreshPeople(queryClient, [userId]);
    },
  });
}

/** Blocks (`block: true`) or unblocks a user. */
export function useSetBlocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, block }: { userId: string; block: boolean }) =>
      api.call(block ? routes.contacts.block : routes.contacts.unblock, {
        params: { id: userId },
      }),
    onSuccess: (_result, { userId, block }) => {
      queryClient.setQueryData<UserProfile>(queryKeys.person(userId), (person) =>
        person ? { ...person, blocked: block } : person,
      );
      queryClient.setQueryData<BlockListResult>(queryKeys.blocks(), (list) =>
        list && !block ? applyBlockEvent(list, { type: 'unblocked', userId }) : list,
      );
      // A block may also end the friendship or hide applications: ask the server.
      for (const queryKey of [
        queryKeys.blocks(),
        queryKeys.friends(),
        queryKeys.friendRequests(),
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
      refreshPeople(queryClient, [userId]);
    },
  });
}
