import type { QueryClient } from '@tanstack/react-query';
import type {
  BlockListResult,
  FriendListResult,
  FriendRequest,
  FriendRequestListResult,
  Me,
  UserEvent,
} from '@teltlk/protocol';
import { queryKeys } from './query-keys';
import {
  applyBlockEvent,
  applyFriendEvent,
  eventPersonIds,
  upsertFriendRequest,
} from './contact-cache';

function myId(queryClient: QueryClient): string | undefined {
  return queryClient.getQueryData<Me>(queryKeys.me())?.id;
}

/** Files an application in the cached lists; without knowing who "I" am, reloads them. */
export function storeRequest(queryClient: QueryClient, request: FriendRequest): void {
  const me = myId(queryClient);
  if (!me) {
    void queryClient.invalidateQueries({ queryKey: queryKeys.friendRequests() });
    return;
  }
  queryClient.setQueryData<FriendRequestListResult>(queryKeys.friendRequests(), (lists) =>
    lists ? upsertFriendRequest(lists, request, me) : lists,
  );
}

export function refreshPeople(queryClient: QueryClient, userIds: readonly string[]): void {
  for (const userId of userIds) {
    void queryClient.invalidateQueries({ queryKey: queryKeys.person(userId) });
  }
}

/** Applies one event of the user's stream to the cached contacts data. */
export function applyUserEvent(queryClient: QueryClient, event: UserEvent): void {
  const data = event.data;
  switch (data.type) {
    case 'friendRequest':
      storeRequest(queryClient, data.request);
      break;
    case 'friendAdded':
    case 'friendUpdated':
    case 'friendRemoved':
      queryClient.setQueryData<FriendListResult>(queryKeys.friends(), (list) =>
        list ? applyFriendEvent(list, data) : list,
      );
      // Becoming friends another way turns pending applications into "added".
      if (data.type === 'friendAdded') {
        void queryClient.invalidateQueries({ queryKey: queryKeys.friendRequests() });
      }
      break;
    case 'blocked':
    case 'unblocked':
      queryClient.setQueryData<BlockListResult>(queryKeys.blocks(), (list) =>
        list ? applyBlockEvent(list, data) : list,
      );
      break;
    default:
      return;
  }
  refreshPeople(queryClient, eventPersonIds(data, myId(queryClient)));
}
