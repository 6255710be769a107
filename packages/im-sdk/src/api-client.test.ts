import { describe, expect, it, vi } from 'vitest';
import { ApiClient, type StepUpAsk } from './api-client.js';
import { ApiError, StepUpCancelled } from './api-error.js';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const me = {
  id: 'u1',
  teltlkId: 't123456789',
  nickname: 'Ada',
  avatarUrl: null,
  country: 'GB',
  motherTongue: 'en',
  phone: null,
  email: 'ada@example.com',
  inviteCode: 'ABCDEFGH',
  teltlkIdChangeableAt: null,
  createdAt: 1,
};

describe('ApiClient', () => {
  it('sends the bearer token and language, and parses the response with the contract', async () => {
    const fetch = vi.fn((_url: string | URL | Request, _init?: RequestInit) =>
      Promise.resolve(jsonResponse(200, me)),
    );
    const client = new ApiClient({ getToken: () => 'tok', getLanguage: () => 'zh_TW', fetch });
    await expect(client.me()).resolves.toEqual(me);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/v1/me');
    expect(init?.headers).toMatchObject({
      authorization: 'Bearer tok',
      'accept-language': 'zh_TW',
    });
  });

  it('sends JSON bodies and omits the token when signed out', async () => {
    const fetch = vi.fn((_url: string | URL | Request, _init?: RequestInit) =>
      Promise.resolve(jsonResponse(200, { resendAfter: 60, expiresIn: 600 })),
    );
    const client = new ApiClient({ getToken: () => null, fetch });
    await client.sendCode({ purpose: 'register', channel: 'email', destination: 'a@b.co' });
    const init = fetch.mock.calls[0]![1]!;
    expect(init.method).toBe('POST');
    expect(init.headers).not.toHaveProperty('authorization');
    expect(JSON.parse(init.body as string)).toEqual({
      purpose: 'register',
      channel: 'email',
      destination: 'a@b.co',
    });
  });

  it('turns an error body into an ApiError with its code, params and issues', async () => {
    const fetch = vi.fn(() =>
      Promise.resolve(
        jsonResponse(429, {
          error: { code: 'CODE_TOO_FREQUENT', message: 'x', params: { seconds: 42 } },
        }),
      ),
    );
    const client = new ApiClient({ getToken: () => null, fetch });
    const error = await client
      .sendCode({ purpose: 'login', channel: 'phone', destination: '+8613800000000' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'CODE_TOO_FREQUENT',
      status: 429,
      params: { seconds: 42 },
    });
    expect((error as ApiError).message).toContain('42 seconds');
  });

  it('tells the app when the session is gone', async () => {
    const onUnauthorized = vi.fn();
    const fetch = vi.fn(() =>
      Promise.resolve(jsonResponse(401, { error: { code: 'TOKEN_EXPIRED', message: 'x' } })),
    );
    const client = new ApiClient({ getToken: () => 'old', fetch, onUnauthorized });
    await expect(client.me()).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect(onUnauthorized).toHaveBeenCalledWith('TOKEN_EXPIRED');
  });

  it('tells the app when the service is under maintenance', async () => {
    const onMaintenance = vi.fn();
    const onUnauthorized = vi.fn();
    const fetch = vi.fn(() =>
      Promise.resolve(jsonResponse(503, { error: { code: 'MAINTENANCE', message: 'x' } })),
    );
    const client = new ApiClient({ getToken: () => 't', fetch, onMaintenance, onUnauthorized });
    await expect(client.me()).rejects.toMatchObject({ code: 'MAINTENANCE', status: 503 });
    expect(onMaintenance).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('maps an unreadable error and a network failure to stable codes', async () => {
    const html = vi.fn(() =>
      Promise.resolve(new Response('<html>bad gateway</html>', { status: 502 })),
    );
    await expect(new ApiClient({ getToken: () => null, fetch: html }).me()).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      status: 502,
    });
    const down = vi.fn(() => Promise.reject(new TypeError('fetch failed')));
    await expect(new ApiClient({ getToken: () => null, fetch: down }).me()).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      status: 0,
    });
  });

  it('gives up after its timeout with TIMEOUT', async () => {
    const hang = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () =>
            reject(new Error('aborted', { cause: init.signal?.reason })),
          );
        }),
    );
    const client = new ApiClient({ getToken: () => null, fetch: hang, timeoutMs: 20 });
    await expect(client.me()).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
});

describe('ApiClient contacts', () => {
  const card = {
    id: 'u2',
    teltlkId: 'grace1906',
    nickname: 'Grace',
    avatarUrl: null,
    country: 'US',
    motherTongue: 'en',
    official: false,
  };

  it('searches with an encoded query and unwraps the profile', async () => {
    const profile = { ...card, relation: 'none', remark: null, blocked: false };
    const fetch = vi.fn((_url: string | URL | Request, _init?: RequestInit) =>
      Promise.resolve(jsonResponse(200, { user: profile })),
    );
    const client = new ApiClient({ getToken: () => 'tok', fetch });
    await expect(client.searchUser('+44 20&x')).resolves.toEqual(profile);
    expect(fetch.mock.calls[0]![0]).toBe('/api/v1/users/search?q=%2B44+20%26x');
  });

  it('reports USER_NOT_FOUND when nobody matches', async () => {
    const fetch = vi.fn(() =>
      Promise.resolve(jsonResponse(404, { error: { code: 'USER_NOT_FOUND', message: 'x' } })),
    );
    const client = new ApiClient({ getToken: () => 'tok', fetch });
    await expect(client.searchUser('nobody1234')).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
      status: 404,
    });
  });

  it('sends a friend request and parses the answer with the contract', async () => {
    const request = {
      id: 'r1',
      from: { ...card, id: 'u1', nickname: 'Ada' },
      to: card,
      greeting: 'Hi',
      status: 'pending',
      createdAt: 5,
      handledAt: null,
    };
    const fetch = vi.fn((_url: string | URL | Request, _init?: RequestInit) =>
      Promise.resolve(jsonResponse(200, request)),
    );
    const client = new ApiClient({ getToken: () => 'tok', fetch });
    await expect(client.sendFriendRequest({ userId: 'u2', greeting: 'Hi' })).resolves.toEqual(
      request,
    );
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/v1/friend-requests');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ userId: 'u2', greeting: 'Hi' });

    await client.acceptFriendRequest('r1');
    expect(fetch.mock.calls[1]![0]).toBe('/api/v1/friend-requests/r1/accept');

    await expect(client.requestFriendInGroup('g1', 'u2', { greeting: 'Hi' })).resolves.toEqual(
      request,
    );
    const [groupUrl, groupInit] = fetch.mock.calls[2]!;
    expect(groupUrl).toBe('/api/v1/groups/g1/members/u2/friend-request');
    expect(JSON.parse(groupInit?.body as string)).toEqual({ greeting: 'Hi' });
  });

  it('takes a cut-off answer for a network error, not for data', async () => {
    const cutOff = () => new Response('{"friends":[{"user":', { status: 200 });
    const client = new ApiClient({
      getToken: () => 'tok',
      fetch: vi.fn(() => Promise.resolve(cutOff())),
    });
    await expect(client.friends()).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it('uses PATCH, PUT and DELETE for remarks, blocks and deletions', async () => {
    const fetch = vi.fn((_url: string | URL | Request, init?: RequestInit) =>
      Promise.resolve(
        init?.method === 'PATCH'
          ? jsonResponse(200, { user: card, remark: 'G', since: 1 })
          : new Response(null, { status: 204 }),
      ),
    );
    const client = new ApiClient({ getToken: () => 'tok', fetch });
    await expect(client.updateFriend('u2', { remark: 'G' })).resolves.toMatchObject({
      remark: 'G',
    });
    await client.block('u2');
    await client.unblock('u2');
    await client.deleteFriend('u2');
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method} ${url as string}`)).toEqual([
      'PATCH /api/v1/friends/u2',
      'PUT /api/v1/blocks/u2',
      'DELETE /api/v1/blocks/u2',
      'DELETE /api/v1/friends/u2',
    ]);
  });

  it('asks for translations and previews, and turns a missing provider into its code', async () => {
    const translation = {
      conversationId: 'si_a_b',
      seq: 3,
      messageId: 'm3',
      lang: 'en',
      from: 'fr',
      status: 'pending',
      text: null,
      error: null,
      at: 1,
    };
    const answers = [
      jsonResponse(200, { translations: [translation] }),
      jsonResponse(200, { from: 'en', to: 'fr', text: 'bonjour' }),
      jsonResponse(503, { error: { code: 'TRANSLATION_UNAVAILABLE', message: 'x' } }),
    ];
    const fetch = vi.fn((_url: string | URL | Request, _init?: RequestInit) => {
      const answer = answers.shift();
      return answer ? Promise.resolve(answer) : Promise.reject(new Error('unexpected call'));
    });
    const client = new ApiClient({ getToken: () => 'tok', fetch });
    const body = { conversationId: 'si_a_b', seqs: [3, 4], lang: 'en', retry: true };
    await expect(client.translate(body)).resolves.toEqual({ translations: [translation] });
    await expect(client.previewTranslation({ text: 'hello', to: 'fr' })).resolves.toEqual({
      from: 'en',
      to: 'fr',
      text: 'bonjour',
    });
    await expect(client.translationInfo()).rejects.toMatchObject({
      code: 'TRANSLATION_UNAVAILABLE',
      status: 503,
    });
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method} ${url as string}`)).toEqual([
      'POST /api/v1/translations',
      'POST /api/v1/translations/preview',
      'GET /api/v1/translations/info',
    ]);
    expect(JSON.parse(fetch.mock.calls[0]?.[1]?.body as string)).toEqual(body);
  });
});

describe('ApiClient step-up', () => {
  describe('a call refused for want of a step-up', () => {
    const refusal = (reason: string) =>
      jsonResponse(403, {
        error: { code: 'STEP_UP_REQUIRED', message: 'x', params: { reason } },
      });
    const withdrawal = { amount: '2', password: '123456' };

    function clientAnswering(
      answers: Response[],
      onStepUpRequired: (ask: StepUpAsk) => Promise<boolean> = () => Promise.resolve(true),
    ) {
      const fetch = vi.fn((_url: string | URL | Request, _init?: RequestInit) => {
        const answer = answers.shift();
        return answer ? Promise.resolve(answer) : Promise.reject(new Error('unexpected call'));
      });
      const ask = vi.fn(onStepUpRequired);
      return {
        fetch,
        ask,
        client: new ApiClient({ getToken: () => 'tok', fetch, onStepUpRequired: ask }),
      };
    }

    it('asks for a proof with the reason and the call, then makes the same call again', async () => {
      const record = { id: 'p1', state: 'completed' };
      const { fetch, ask, client } = clientAnswering([refusal('hold'), jsonResponse(200, record)]);
      await expect(client.withdraw(withdrawal)).resolves.toEqual(record);
      expect(ask).toHaveBeenCalledExactlyOnceWith({
        reason: 'hold',
        method: 'POST',
        path: '/wallet/withdraw',
      });
      expect(fetch).toHaveBeenCalledTimes(2);
      const bodies = fetch.mock.calls.map(([, init]) => init?.body);
      expect(bodies[1]).toBe(bodies[0]);
    });

    it('reads an unknown or missing reason as a stale proof', async () => {
      const { ask, client } = clientAnswering([
        jsonResponse(403, { error: { code: 'STEP_UP_REQUIRED', message: 'x' } }),
        new Response(null, { status: 204 }),
      ]);
      await client.revokeSession('s2');
      expect(ask.mock.calls[0]?.[0]).toMatchObject({ reason: 'stale', method: 'DELETE' });
    });

    it('fails quietly, without calling again, when the person gives up', async () => {
      const { fetch, client } = clientAnswering([refusal('stale')], () => Promise.resolve(false));
      const error = await client.unbindPi().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StepUpCancelled);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'STEP_UP_REQUIRED', status: 403 });
      expect(fetch).toHaveBeenCalledTimes(1);
    });

    it('asks again when the call is refused again, a few times at most', async () => {
      const { fetch, ask, client } = clientAnswering(
        Array.from({ length: 4 }, () => refusal('stale')),
      );
      const error = await client.unbindPi().catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(StepUpCancelled);
      expect(error).toMatchObject({ code: 'STEP_UP_REQUIRED' });
      expect(ask).toHaveBeenCalledTimes(3);
      expect(fetch).toHaveBeenCalledTimes(4);
    });

    it('gives the refusal to calls made without the person, and to the step-up calls', async () => {
      const { ask, client } = clientAnswering([refusal('hold'), refusal('stale')]);
      const body = { endpoint: 'https://push.example/1', keys: { p256dh: 'k', auth: 'a' } };
      await expect(client.subscribePush(body, { stepUp: false })).rejects.toMatchObject({
        code: 'STEP_UP_REQUIRED',
        params: { reason: 'hold' },
      });
      await expect(client.stepUp({ method: 'password', password: 'x' })).rejects.toMatchObject({
        code: 'STEP_UP_REQUIRED',
      });
      expect(ask).not.toHaveBeenCalled();
    });

    it('leaves other errors to the caller', async () => {
      const { ask, client } = clientAnswering([
        jsonResponse(400, { error: { code: 'PAYMENT_PASSWORD_INCORRECT', message: 'x' } }),
      ]);
      await expect(client.withdraw(withdrawal)).rejects.toMatchObject({
        code: 'PAYMENT_PASSWORD_INCORRECT',
      });
      expect(ask).not.toHaveBeenCalled();
    });
  });

  it('reaches the security endpoints at their paths', async () => {
    const fetch = vi.fn((_url: string | URL | Request, _init?: RequestInit) =>
      Promise.resolve(jsonResponse(200, {})),
    );
    const client = new ApiClient({ getToken: () => 'tok', fetch });
    await client.stepUpStatus();
    await client.sendStepUpCode({ channel: 'email' });
    await client.stepUp({ method: 'code', channel: 'email', code: '123456' });
    await client.securityActivity({ cursor: '5:abc', limit: 20 });
    await client.addressUndo('token_token_token');
    await client.undoAddressChange('token_token_token');
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method} ${url as string}`)).toEqual([
      'GET /api/v1/security/step-up',
      'POST /api/v1/security/step-up/code',
      'POST /api/v1/security/step-up',
      'GET /api/v1/security/activity?cursor=5%3Aabc&limit=20',
      'GET /api/v1/security/address-undo/token_token_token',
      'POST /api/v1/security/address-undo',
    ]);
  });
});
