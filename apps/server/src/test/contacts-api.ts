import type {
  EventPageResult,
  FriendListResult,
  FriendRequest,
  FriendRequestListResult,
  UserEventData,
} from '@teltlk/protocol';
import { expect } from 'vitest';
import { AppError } from '../errors.js';
import type { RegisteredUser, TestApp } from './harness.js';

/** The contacts tests' calls, as people of the app made by `app`. */
export function contactsApi(app: () => TestApp) {
  const api =
    (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string) =>
    (who: RegisteredUser, body?: unknown) =>
      app().call(method, `/api/v1${url}`, { token: who.token, body });
  const ok = async <T>(response: Promise<{ statusCode: number; body: string; json<U>(): U }>) => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<T>();
  };
  const noContent = async (response: Promise<{ statusCode: number; body: string }>) => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBe(204);
  };

  const search = (who: RegisteredUser, q: string) =>
    app().call('GET', `/api/v1/users/search?q=${encodeURIComponent(q)}`, { token: who.token });
  const send = (who: RegisteredUser, to: RegisteredUser | string, greeting?: string) =>
    api('POST', '/friend-requests')(who, {
      userId: typeof to === 'string' ? to : to.user.id,
      ...(greeting === undefined ? {} : { greeting }),
    });
  const accept = (who: RegisteredUser, id: string) =>
    api('POST', `/friend-requests/${id}/accept`)(who);
  const reject = (who: RegisteredUser, id: string) =>
    api('POST', `/friend-requests/${id}/reject`)(who);
  const requests = (who: RegisteredUser) =>
    ok<FriendRequestListResult>(api('GET', '/friend-requests')(who));
  const friends = (who: RegisteredUser) => ok<FriendListResult>(api('GET', '/friends')(who));
  const profile = (who: RegisteredUser, of: RegisteredUser | string) =>
    api('GET', `/users/${typeof of === 'string' ? of : of.user.id}`)(who);
  const block = (who: RegisteredUser, of: RegisteredUser) =>
    noContent(api('PUT', `/blocks/${of.user.id}`)(who));
  const unblock = (who: RegisteredUser, of: RegisteredUser) =>
    noContent(api('DELETE', `/blocks/${of.user.id}`)(who));
  const events = async (who: RegisteredUser, after = 0): Promise<UserEventData[]> =>
    (await ok<EventPageResult>(api('GET', `/sync/events?after=${after}`)(who))).events.map(
      (event) => event.data,
    );
  const lastSeq = async (who: RegisteredUser) =>
    (await ok<EventPageResult>(api('GET', '/sync/events')(who))).lastSeq;

  /** Two users who are friends by an accepted application. */
  async function friendsPair(): Promise<[RegisteredUser, RegisteredUser]> {
    const ada = await app().register({ nickname: 'Ada' });
    const bob = await app().register({ nickname: 'Bob' });
    const request = await ok<FriendRequest>(send(ada, bob));
    await ok(accept(bob, request.id));
    return [ada, bob];
  }

  const canMessage = async (from: RegisteredUser | string, to: RegisteredUser | string) => {
    const id = (who: RegisteredUser | string) => (typeof who === 'string' ? who : who.user.id);
    try {
      await app().ctx.services.contacts.checkCanMessage(id(from), id(to));
      return 'ok';
    } catch (error) {
      if (error instanceof AppError) return error.code;
      throw error;
    }
  };

  return {
    api,
    ok,
    noContent,
    search,
    send,
    accept,
    reject,
    requests,
    friends,
    profile,
    block,
    unblock,
    events,
    lastSeq,
    friendsPair,
    canMessage,
  };
}
