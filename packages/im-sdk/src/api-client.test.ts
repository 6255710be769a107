import { describe, expect, it, vi } from 'vitest';
import { ApiClient, ApiError } from './api-client.js';

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
