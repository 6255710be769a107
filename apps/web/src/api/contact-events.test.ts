import { QueryClient } from '@tanstack/react-query';
import type {
  FriendListResult,
  FriendRequest,
  FriendRequestListResult,
  UserCard,
  UserEventData,
} from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { queryKeys } from './query-keys';
import { pendingReceivedCount } from './contact-cache';
import { applyUserEvent } from './contact-events';

const ME = 'me1';

function card(id: string): UserCard {
  return {
    id,
    teltlkId: `t${id}abcdef`,
    nickname: id,
    avatarUrl: null,
    country: 'GB',
    motherTongue: 'en',
    official: false,
  };
}

function request(id: string, from: string, status: FriendRequest['status']): FriendRequest {
  return {
    id,
    from: card(from),
    to: card(ME),
    greeting: '',
    status,
    createdAt: 1,
    handledAt: null,
  };
}

let seq = 0;
function apply(client: QueryClient, data: UserEventData) {
  seq += 1;
  applyUserEvent(client, { seq, at: seq, data });
}

function setup(): QueryClient {
  const client = new QueryClient();
  client.setQueryData(queryKeys.me(), { id: ME });
  client.setQueryData<FriendRequestListResult>(queryKeys.friendRequests(), {
    received: [],
    sent: [],
  });
  client.setQueryData<FriendListResult>(queryKeys.friends(), { friends: [] });
  return client;
}

describe('applyUserEvent', () => {
  it('moves the badge count with live friend-request events', () => {
    const client = setup();
    const count = () =>
      pendingReceivedCount(
        client.getQueryData<FriendRequestListResult>(queryKeys.friendRequests()),
      );
    apply(client, { type: 'friendRequest', request: request('r1', 'a', 'pending') });
    apply(client, { type: 'friendRequest', request: request('r2', 'b', 'pending') });
    expect(count()).toBe(2);
    apply(client, { type: 'friendRequest', request: request('r1', 'a', 'agreed') });
    expect(count()).toBe(1);
  });

  it('keeps the friend list in step and marks the person stale', () => {
    const client = setup();
    client.setQueryData(queryKeys.person('a'), { id: 'a' });
    apply(client, { type: 'friendAdded', friend: { user: card('a'), remark: null, since: 1 } });
    expect(client.getQueryData<FriendListResult>(queryKeys.friends())?.friends).toHaveLength(1);
    expect(client.getQueryState(queryKeys.person('a'))?.isInvalidated).toBe(true);
    apply(client, { type: 'friendRemoved', userId: 'a' });
    expect(client.getQueryData<FriendListResult>(queryKeys.friends())?.friends).toEqual([]);
  });

  it('reloads the applications when it does not yet know who the user is', () => {
    const client = setup();
    client.removeQueries({ queryKey: queryKeys.me(), exact: true });
    apply(client, { type: 'friendRequest', request: request('r1', 'a', 'pending') });
    expect(client.getQueryState(queryKeys.friendRequests())?.isInvalidated).toBe(true);
    expect(
      client.getQueryData<FriendRequestListResult>(queryKeys.friendRequests())?.received,
    ).toEqual([]);
  });
});
