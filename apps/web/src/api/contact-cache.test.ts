import type {
  Friend,
  FriendRequest,
  FriendRequestListResult,
  FriendRequestStatus,
  UserCard,
} from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import {
  applyBlockEvent,
  applyFriendEvent,
  eventPersonIds,
  pendingReceivedCount,
  upsertFriendRequest,
} from './contact-cache';

const ME = 'me1';

function card(id: string): UserCard {
  return {
    id,
    teltlkId: `t${id}abcdef`,
    nickname: `User ${id}`,
    avatarUrl: null,
    country: 'GB',
    motherTongue: 'en',
    official: false,
  };
}

function request(
  id: string,
  from: string,
  to: string,
  status: FriendRequestStatus = 'pending',
  createdAt = 1,
): FriendRequest {
  return {
    id,
    from: card(from),
    to: card(to),
    greeting: '',
    status,
    createdAt,
    handledAt: null,
  };
}

function friend(id: string, remark: string | null = null): Friend {
  return { user: card(id), remark, since: 1 };
}

const empty: FriendRequestListResult = { received: [], sent: [] };

describe('pendingReceivedCount', () => {
  it('counts only pending received applications; nothing loaded counts zero', () => {
    expect(pendingReceivedCount(undefined)).toBe(0);
    expect(pendingReceivedCount(empty)).toBe(0);
    expect(
      pendingReceivedCount({
        received: [
          request('r1', 'a', ME),
          request('r2', 'b', ME, 'agreed'),
          request('r3', 'c', ME, 'rejected'),
          request('r4', 'd', ME, 'added'),
          request('r5', 'e', ME),
        ],
        sent: [request('s1', ME, 'f')],
      }),
    ).toBe(2);
  });
});

describe('upsertFriendRequest', () => {
  it('files an application by direction, newest first', () => {
    let lists = upsertFriendRequest(empty, request('r1', 'a', ME, 'pending', 1), ME);
    lists = upsertFriendRequest(lists, request('r2', 'b', ME, 'pending', 3), ME);
    lists = upsertFriendRequest(lists, request('s1', ME, 'c', 'pending', 2), ME);
    expect(lists.received.map((item) => item.id)).toEqual(['r2', 'r1']);
    expect(lists.sent.map((item) => item.id)).toEqual(['s1']);
  });

  it('keeps the badge right as events arrive: new, replaced, handled', () => {
    let lists = empty;
    const count = () => pendingReceivedCount(lists);
    lists = upsertFriendRequest(lists, request('r1', 'a', ME, 'pending', 1), ME);
    expect(count()).toBe(1);
    // The same sender asks again: same id, replaces the old one.
    lists = upsertFriendRequest(lists, request('r1', 'a', ME, 'pending', 5), ME);
    expect(count()).toBe(1);
    expect(lists.received).toHaveLength(1);
    expect(lists.received[0]?.createdAt).toBe(5);
    lists = upsertFriendRequest(lists, request('r2', 'b', ME), ME);
    expect(count()).toBe(2);
    lists = upsertFriendRequest(lists, request('r1', 'a', ME, 'agreed', 5), ME);
    expect(count()).toBe(1);
    lists = upsertFriendRequest(lists, request('r2', 'b', ME, 'rejected'), ME);
    expect(count()).toBe(0);
    // My own applications never count.
    lists = upsertFriendRequest(lists, request('s1', ME, 'c'), ME);
    expect(count()).toBe(0);
  });

  it('ignores an application between two other people', () => {
    const lists = upsertFriendRequest(empty, request('x', 'a', 'b'), ME);
    expect(lists).toEqual(empty);
  });
});

describe('applyFriendEvent', () => {
  it('adds a new friend once, updates and removes', () => {
    let list = { friends: [friend('a')] };
    list = applyFriendEvent(list, { type: 'friendAdded', friend: friend('b') });
    list = applyFriendEvent(list, { type: 'friendAdded', friend: friend('b') });
    expect(list.friends.map((item) => item.user.id)).toEqual(['a', 'b']);
    list = applyFriendEvent(list, { type: 'friendUpdated', friend: friend('a', 'Boss') });
    expect(list.friends[0]?.remark).toBe('Boss');
    list = applyFriendEvent(list, { type: 'friendRemoved', userId: 'a' });
    expect(list.friends.map((item) => item.user.id)).toEqual(['b']);
  });

  it('leaves the list alone for other events', () => {
    const list = { friends: [friend('a')] };
    expect(applyFriendEvent(list, { type: 'unblocked', userId: 'a' })).toBe(list);
  });
});

describe('applyBlockEvent', () => {
  it('adds a blocked user once, newest first, and removes on unblock', () => {
    let list = { blocked: [card('a')] };
    list = applyBlockEvent(list, { type: 'blocked', user: card('b') });
    list = applyBlockEvent(list, { type: 'blocked', user: card('b') });
    expect(list.blocked.map((user) => user.id)).toEqual(['b', 'a']);
    list = applyBlockEvent(list, { type: 'unblocked', userId: 'a' });
    expect(list.blocked.map((user) => user.id)).toEqual(['b']);
  });
});

describe('eventPersonIds', () => {
  it('names the other person of each contacts event', () => {
    expect(eventPersonIds({ type: 'friendRequest', request: request('r', 'a', ME) }, ME)).toEqual([
      'a',
    ]);
    expect(eventPersonIds({ type: 'friendRequest', request: request('r', ME, 'b') }, ME)).toEqual([
      'b',
    ]);
    expect(eventPersonIds({ type: 'friendAdded', friend: friend('c') }, ME)).toEqual(['c']);
    expect(eventPersonIds({ type: 'blocked', user: card('d') }, ME)).toEqual(['d']);
    expect(eventPersonIds({ type: 'unblocked', userId: 'e' }, ME)).toEqual(['e']);
    expect(eventPersonIds({ type: 'messageHidden', conversationId: 'si_a_b', seq: 1 }, ME)).toEqual(
      [],
    );
  });
});
