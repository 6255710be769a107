import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { MyGroup, UpdateGroupBody, UpdateMyGroupBody, UserEvent } from '@teltlk/protocol';
import { useMemo } from 'react';
import { api } from './client';
import { fileForm } from './file-form';
import { useAuthStore } from '../app/auth-store';
import { useUserEvents } from '../app/user-events';

/** Query keys of group data; under `me` like all the user's data, so sign-out clears them. */
export const groupKeys = {
  all: () => ['me', 'groups'] as const,
  list: () => ['me', 'groups', 'list'] as const,
  group: (groupId: string) => ['me', 'groups', 'one', groupId] as const,
  /** Every search of a group's member list. */
  allMembers: (groupId: string) => ['me', 'groups', 'members', groupId] as const,
  members: (groupId: string, q: string) => ['me', 'groups', 'members', groupId, q] as const,
  reads: (groupId: string, seq: number) => ['me', 'groups', 'reads', groupId, seq] as const,
  applications: () => ['me', 'group-applications'] as const,
  search: (no: string) => ['groups', 'search', no] as const,
};

/** A group id from a query parameter: the characters a conversation id allows. */
export function readGroupId(search: URLSearchParams): string | null {
  const id = search.get('groupId');
  return id && /^[A-Za-z0-9]{1,32}$/.test(id) ? id : null;
}

/** The name the caller sees for a group: their remark first. */
export function groupTitle(group: Pick<MyGroup, 'name' | 'me'>): string {
  return group.me.remark || group.name;
}

function useSignedIn(): boolean {
  return useAuthStore((state) => state.token !== null);
}

export function useMyGroups() {
  return useQuery({
    queryKey: groupKeys.list(),
    queryFn: () => api.call(routes.groups.list).then((result) => result.groups),
    enabled: useSignedIn(),
  });
}

/** The caller's remarks for groups, by group id: the chat list names groups by them. */
export function useGroupRemarks(): ReadonlyMap<string, string | null> {
  const groups = useMyGroups();
  return useMemo(
    () => new Map(groups.data?.map((group) => [group.id, group.me.remark]) ?? []),
    [groups.data],
  );
}

export function useGroup(groupId: string | null) {
  return useQuery({
    queryKey: groupKeys.group(groupId ?? ''),
    queryFn: () => api.call(routes.groups.get, { params: { id: groupId ?? '' } }),
    enabled: useSignedIn() && groupId !== null,
    // Leaving or removal answers 404/403: asking again will not change that.
    retry: false,
  });
}

/** Members a page at a time (the list can hold 100,000), searchable by name or ID. */
export function useGroupMembers(groupId: string, q: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: groupKeys.members(groupId, q),
    queryFn: ({ pageParam }) =>
      api.call(routes.groups.members, {
        params: { id: groupId },
        query: { q: q || undefined, cursor: pageParam ?? undefined },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled: useSignedIn() && enabled,
  });
}

export function useGroupApplications() {
  return useQuery({
    queryKey: groupKeys.applications(),
    queryFn: () => api.call(routes.groups.applications),
    enabled: useSignedIn(),
    refetchOnMount: 'always',
  });
}

/** Pending applications the caller may answer: the badge of the applications entry. */
export function usePendingReviewCount(): number {
  const applications = useGroupApplications();
  return applications.data?.toReview.filter((item) => item.status === 'pending').length ?? 0;
}

/** Group data a user event makes stale. */
export function applyGroupEvent(queryClient: QueryClient, event: UserEvent): void {
  const data = event.data;
  switch (data.type) {
    case 'groupJoined':
    case 'groupLeft':
      void queryClient.invalidateQueries({ queryKey: groupKeys.list() });
      void queryClient.invalidateQueries({ queryKey: groupKeys.group(data.groupId) });
      void queryClient.invalidateQueries({ queryKey: groupKeys.applications() });
      break;
    case 'groupApplication':
      void queryClient.invalidateQueries({ queryKey: groupKeys.applications() });
      break;
    default:
  }
}

/** Keeps group lists and applications fresh from the live event stream. */
export function useGroupEvents(): void {
  const queryClient = useQueryClient();
  useUserEvents((event) => applyGroupEvent(queryClient, event));
}

/** Stores a changed group in the cached group and list. */
function storeGroup(queryClient: QueryClient, group: MyGroup): void {
  queryClient.setQueryData(groupKeys.group(group.id), group);
  queryClient.setQueryData<MyGroup[]>(groupKeys.list(), (list) =>
    list?.map((item) => (item.id === group.id ? group : item)),
  );
}

export function useUpdateGroup(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateGroupBody) =>
      api.call(routes.groups.update, { params: { id: groupId }, body }),
    onSuccess: (group) => {
      const mine = queryClient.getQueryData<MyGroup>(groupKeys.group(groupId));
      if (mine) storeGroup(queryClient, { ...mine, ...group });
      void queryClient.invalidateQueries({ queryKey: groupKeys.list() });
    },
  });
}

export function useUploadGroupAvatar(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) =>
      api.call(routes.groups.setAvatar, { params: { id: groupId }, body: fileForm(file) }),
    onSuccess: (group) => {
      const mine = queryClient.getQueryData<MyGroup>(groupKeys.group(groupId));
      if (mine) storeGroup(queryClient, { ...mine, ...group });
      void queryClient.invalidateQueries({ queryKey: groupKeys.list() });
    },
  });
}

export function useUpdateMyGroup(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMyGroupBody) =>
      api.call(routes.groups.updateMine, { params: { id: groupId }, body }),
    onSuccess: (group) => {
      storeGroup(queryClient, group);
      void queryClient.invalidateQueries({ queryKey: groupKeys.allMembers(groupId) });
    },
  });
}

/** Member changes (role, mute, removal, transfer, invitations): the lists reload after. */
export function useMemberChange(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: groupKeys.allMembers(groupId) });
      void queryClient.invalidateQueries({ queryKey: groupKeys.group(groupId) });
    },
  });
}
