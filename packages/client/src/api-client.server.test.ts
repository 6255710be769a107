import type { AddressInfo } from 'node:net';
import { STEP_UP_WINDOW_SECONDS, type ErrorCode } from '@teltlk/protocol';
import {
  createTestApp,
  PASSWORD,
  uniquePhone,
  type RegisteredUser,
  type TestApp,
} from '@teltlk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type StepUpAsk } from './api-client.js';
import { ApiError } from './api-error.js';
import { routes } from './routes.js';

/**
 * The client against the real server on a free port: the declarations it builds its
 * calls from are the ones the server registers its routes from, so a path, a query or a
 * body the two read differently fails here.
 */
describe('the client against the server', () => {
  let t: TestApp;
  let origin = '';
  let ada: RegisteredUser;
  let grace: RegisteredUser;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    ada = await t.register();
    grace = await t.register({ channel: 'phone', destination: uniquePhone() });
  });

  afterAll(async () => {
    await t.close();
  });

  /** A client signed in as `user` whose token the test may change or forget. */
  function clientOf(user: RegisteredUser | null) {
    const session = { token: user?.token ?? null };
    const lost: ErrorCode[] = [];
    const asks: StepUpAsk[] = [];
    const api: ApiClient = new ApiClient({
      baseUrl: origin,
      getToken: () => session.token,
      onUnauthorized: (code) => lost.push(code),
      // The app shows the step-up sheet here; the test proves it with the password.
      onStepUpRequired: async (ask) => {
        asks.push(ask);
        await api.call(routes.security.stepUp, {
          body: { method: 'password', password: PASSWORD },
        });
        return true;
      },
    });
    return { api, session, lost, asks };
  }

  it('reads the signed-in account, and finds a person by an encoded query', async () => {
    const { api } = clientOf(ada);
    expect(await api.call(routes.users.me)).toMatchObject({ id: ada.user.id });
    const found = await api.call(routes.contacts.searchUsers, {
      query: { q: grace.destination },
    });
    expect(found.user).toMatchObject({ id: grace.user.id });
  });

  it('answers 204 with nothing, and fills the path from the params', async () => {
    const { api } = clientOf(ada);
    await expect(
      api.call(routes.contacts.block, { params: { id: grace.user.id } }),
    ).resolves.toBeUndefined();
    const { blocked } = await api.call(routes.contacts.blocks);
    expect(blocked.map((card) => card.id)).toEqual([grace.user.id]);
    await api.call(routes.contacts.unblock, { params: { id: grace.user.id } });
  });

  it("turns the server's refusals into ApiErrors with their codes and issues", async () => {
    const { api } = clientOf(ada);
    await expect(
      api.call(routes.contacts.profile, { params: { id: 'nobody' } }),
    ).rejects.toMatchObject({ code: 'USER_NOT_FOUND', status: 404 });
    // Encoded, a slash stays inside its param: the id is refused, not the route missed.
    const slashed = await api
      .call(routes.contacts.profile, { params: { id: 'no/body' } })
      .catch((e: unknown) => e);
    expect(slashed).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect((slashed as ApiError).issues?.map((issue) => issue.path)).toEqual(['id']);
    const invalid = await api
      .call(routes.users.updateProfile, { body: { nickname: '' } })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect((invalid as ApiError).issues?.map((issue) => issue.path)).toEqual(['nickname']);
  });

  it('asks for a step-up when the proof is stale, and makes the call again once proven', async () => {
    const other = await clientOf(null).api.call(routes.auth.login, {
      body: { account: ada.destination, password: PASSWORD },
    });
    t.clock.advance((STEP_UP_WINDOW_SECONDS + 1) * 1000);
    const { api, asks } = clientOf(ada);
    const { sessions } = await api.call(routes.sessions.list);
    const elsewhere = sessions.find((session) => !session.current);
    expect(elsewhere).toBeDefined();
    await api.call(routes.sessions.signOut, { params: { id: elsewhere?.id ?? '' } });
    expect(asks).toEqual([
      { reason: 'stale', method: 'DELETE', path: `/sessions/${elsewhere?.id ?? ''}` },
    ]);
    const signedOut = clientOf(null);
    signedOut.session.token = other.token;
    await expect(signedOut.api.call(routes.users.me)).rejects.toMatchObject({
      code: 'TOKEN_EXPIRED',
    });
    expect(signedOut.lost).toEqual(['TOKEN_EXPIRED']);
  });

  it('sends the token of the moment, and tells the app once the session is gone', async () => {
    const { api, session, lost } = clientOf(null);
    const renewed = await api.call(routes.auth.login, {
      body: { account: grace.destination, password: PASSWORD },
    });
    session.token = renewed.token;
    expect(await api.call(routes.users.me)).toMatchObject({ id: grace.user.id });
    await api.call(routes.sessions.logout);
    await expect(api.call(routes.users.me)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect(lost).toEqual(['TOKEN_EXPIRED']);
  });
});
