import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient, type ApiClientOptions } from './api-client.js';
import { ApiError, StepUpCancelled } from './api-error.js';
import { routes } from './routes.js';

/** A request as the local server saw it. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

type Answer = (seen: Seen, response: ServerResponse) => void;

/**
 * A small HTTP server on a free port: the client's calls go through the real fetch and
 * a real socket, and each test says how the server answers them, one answer a call.
 */
let server: Server;
let origin = '';
const seen: Seen[] = [];
let answers: Answer[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call: Seen = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      seen.push(call);
      const answer = answers.shift();
      if (answer) answer(call, response);
      else json(500, { error: { code: 'INTERNAL', message: 'unexpected call' } })(call, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterEach(() => {
  seen.length = 0;
  answers = [];
});

function json(status: number, body: unknown): Answer {
  return (_seen, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
}

const noContent: Answer = (_seen, response) => {
  response.writeHead(204);
  response.end();
};

function client(options: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({ baseUrl: origin, getToken: () => 'tok', ...options });
}

const refusal = (reason?: string) =>
  json(403, {
    error: { code: 'STEP_UP_REQUIRED', message: 'x', ...(reason ? { params: { reason } } : {}) },
  });

describe('a call of a declared endpoint', () => {
  it('goes to the declared method and path, with its params encoded', async () => {
    answers = [noContent];
    await client().call(routes.groups.remove, { params: { id: 'g/1 ?', userId: 'ü#2' } });
    expect(seen[0]).toMatchObject({
      method: 'DELETE',
      url: '/api/v1/groups/g%2F1%20%3F/members/%C3%BC%232',
    });
  });

  it('sends the defined query fields only, encoded', async () => {
    answers = [json(200, { items: [], nextCursor: null }), json(200, { user: {} })];
    await client().call(routes.security.activity, { query: { cursor: '5:abc', limit: 20 } });
    await client().call(routes.contacts.searchUsers, { query: { q: '+44 20&x' } });
    expect(seen.map((call) => call.url)).toEqual([
      '/api/v1/security/activity?cursor=5%3Aabc&limit=20',
      '/api/v1/users/search?q=%2B44+20%26x',
    ]);
    answers = [json(200, { items: [], nextCursor: null })];
    await client().call(routes.payments.payments, {
      query: { cursor: undefined, limit: undefined },
    });
    expect(seen[2]?.url).toBe('/api/v1/wallet/payments');
  });

  it('sends the bearer token, the language and a JSON body, and reads the JSON answer', async () => {
    const settings = { vibration: false };
    answers = [json(200, settings)];
    const api = client({ getLanguage: () => 'zh_TW' });
    await expect(
      api.call(routes.users.updateSettings, { body: { vibration: false } }),
    ).resolves.toEqual(settings);
    expect(seen[0]?.headers).toMatchObject({
      authorization: 'Bearer tok',
      'accept-language': 'zh_TW',
      'content-type': 'application/json',
    });
    expect(JSON.parse(seen[0]?.body.toString() ?? '')).toEqual({ vibration: false });
  });

  it('omits the token when signed out', async () => {
    answers = [json(200, {})];
    await client({ getToken: () => null }).call(routes.users.me);
    expect(seen[0]?.headers).not.toHaveProperty('authorization');
  });

  it('answers nothing for 204 No Content', async () => {
    answers = [noContent];
    await expect(
      client().call(routes.contacts.block, { params: { id: 'u2' } }),
    ).resolves.toBeUndefined();
    expect(seen[0]).toMatchObject({ method: 'PUT', url: '/api/v1/blocks/u2' });
  });

  it('sends a form as multipart, as the browser builds it', async () => {
    answers = [json(200, { id: 'u1' })];
    const form = new FormData();
    form.append('file', new Blob(['png bytes'], { type: 'image/png' }), 'avatar');
    await client().call(routes.users.setAvatar, { body: form });
    expect(seen[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]?.body.toString()).toContain('png bytes');
  });

  it('sends raw bytes with the headers of their protocol, and reads bytes back', async () => {
    answers = [
      (_seen, response) => {
        response.writeHead(204, { 'upload-offset': '5' });
        response.end();
      },
      (_seen, response) => {
        response.writeHead(200, { 'content-type': 'image/webp' });
        response.end(Buffer.from([1, 2, 3]));
      },
    ];
    const api = client();
    const chunk = await api.call(
      routes.media.uploadChunk,
      { params: { id: 'up1' }, body: new Blob(['hello']) },
      { headers: { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' } },
    );
    expect(chunk).toBeInstanceOf(Blob);
    expect(seen[0]).toMatchObject({ method: 'PATCH', url: '/api/v1/uploads/up1' });
    expect(seen[0]?.headers).toMatchObject({
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    });
    expect(seen[0]?.body.toString()).toBe('hello');

    const object = await api.call(routes.media.object, {
      params: { id: 'm1', variant: 'thumb' },
      query: { e: '1', s: 's'.repeat(43) },
    });
    expect(new Uint8Array(await object.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });
});

describe('a refused call', () => {
  it('becomes an ApiError with its code, params and issues', async () => {
    const issues = [{ path: 'nickname', code: 'too_long' }];
    answers = [
      json(429, { error: { code: 'CODE_TOO_FREQUENT', message: 'x', params: { seconds: 42 } } }),
      json(400, { error: { code: 'VALIDATION_FAILED', message: 'x', issues } }),
    ];
    const api = client();
    const error = await api
      .call(routes.security.sendStepUpCode, { body: { channel: 'email' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'CODE_TOO_FREQUENT',
      status: 429,
      params: { seconds: 42 },
    });
    expect((error as ApiError).message).toContain('42 seconds');
    await expect(
      api.call(routes.users.updateProfile, { body: { nickname: 'x'.repeat(100) } }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', status: 400, issues });
  });

  it('tells the app when the session is gone, or the service under maintenance', async () => {
    const onUnauthorized = vi.fn();
    const onMaintenance = vi.fn();
    answers = [
      json(401, { error: { code: 'TOKEN_EXPIRED', message: 'x' } }),
      json(503, { error: { code: 'MAINTENANCE', message: 'x' } }),
    ];
    const api = client({ onUnauthorized, onMaintenance });
    await expect(api.call(routes.users.me)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect(onUnauthorized).toHaveBeenCalledExactlyOnceWith('TOKEN_EXPIRED');
    await expect(api.call(routes.users.me)).rejects.toMatchObject({
      code: 'MAINTENANCE',
      status: 503,
    });
    expect(onMaintenance).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('maps an unreadable error, a cut-off answer and a network failure to stable codes', async () => {
    answers = [
      (_seen, response) => {
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<html>bad gateway</html>');
      },
      (_seen, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"friends":[{"user":');
      },
      (_seen, response) => {
        response.writeHead(413);
        response.end();
      },
    ];
    const api = client();
    await expect(api.call(routes.contacts.friends)).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      status: 502,
    });
    await expect(api.call(routes.contacts.friends)).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      status: 0,
    });
    await expect(api.call(routes.users.setAvatar, { body: new FormData() })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      status: 413,
    });
    const down = new ApiClient({ baseUrl: 'http://127.0.0.1:1', getToken: () => null });
    await expect(down.call(routes.contacts.friends)).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      status: 0,
    });
  });

  it('gives up after its timeout with TIMEOUT, and with the reason when its caller aborts', async () => {
    const hang: Answer = () => undefined;
    answers = [hang, hang];
    await expect(client({ timeoutMs: 50 }).call(routes.users.me)).rejects.toMatchObject({
      code: 'TIMEOUT',
      status: 0,
    });
    const controller = new AbortController();
    const call = client().call(routes.users.me, {}, { signal: controller.signal });
    const reason = new Error('left the page');
    setTimeout(() => controller.abort(reason), 20);
    await expect(call).rejects.toBe(reason);
  });
});

describe('a call refused for want of a step-up', () => {
  const withdrawal = { amount: '2', password: '123456' };

  it('asks for a proof with the reason and the call, then makes the same call again', async () => {
    const record = { id: 'p1', state: 'completed' };
    answers = [refusal('hold'), json(200, record)];
    const ask = vi.fn(() => Promise.resolve(true));
    const api = client({ onStepUpRequired: ask });
    await expect(api.call(routes.payments.withdraw, { body: withdrawal })).resolves.toEqual(record);
    expect(ask).toHaveBeenCalledExactlyOnceWith({
      reason: 'hold',
      method: 'POST',
      path: '/wallet/withdraw',
    });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.body.toString()).toBe(seen[0]?.body.toString());
  });

  it('reads an unknown or missing reason as a stale proof', async () => {
    answers = [refusal(), noContent];
    const ask = vi.fn(() => Promise.resolve(true));
    await client({ onStepUpRequired: ask }).call(routes.sessions.signOut, {
      params: { id: 's2' },
    });
    expect(ask.mock.calls[0]).toEqual([
      { reason: 'stale', method: 'DELETE', path: '/sessions/s2' },
    ]);
  });

  it('fails quietly, without calling again, when the person gives up', async () => {
    answers = [refusal('stale')];
    const api = client({ onStepUpRequired: () => Promise.resolve(false) });
    const error = await api
      .call(routes.payments.withdraw, { body: withdrawal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepUpCancelled);
    expect(error).toMatchObject({ code: 'STEP_UP_REQUIRED', status: 403 });
    expect(seen).toHaveLength(1);
  });

  it('asks again when the call is refused again, a few times at most', async () => {
    answers = Array.from({ length: 4 }, () => refusal('stale'));
    const ask = vi.fn(() => Promise.resolve(true));
    const error = await client({ onStepUpRequired: ask })
      .call(routes.payments.withdraw, { body: withdrawal })
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(StepUpCancelled);
    expect(error).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect(ask).toHaveBeenCalledTimes(3);
    expect(seen).toHaveLength(4);
  });

  it('gives the refusal to calls made without the person, and to the step-up calls', async () => {
    answers = [refusal('hold'), refusal('stale')];
    const ask = vi.fn(() => Promise.resolve(true));
    const api = client({ onStepUpRequired: ask });
    const body = { endpoint: 'https://push.example/1', keys: { p256dh: 'k', auth: 'a' } };
    await expect(
      api.call(routes.push.subscribe, { body }, { stepUp: false }),
    ).rejects.toMatchObject({ code: 'STEP_UP_REQUIRED', params: { reason: 'hold' } });
    await expect(
      api.call(routes.security.stepUp, { body: { method: 'password', password: 'x' } }),
    ).rejects.toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect(ask).not.toHaveBeenCalled();
  });

  it('leaves other errors to the caller', async () => {
    answers = [json(400, { error: { code: 'PAYMENT_PASSWORD_INCORRECT', message: 'x' } })];
    const ask = vi.fn(() => Promise.resolve(true));
    await expect(
      client({ onStepUpRequired: ask }).call(routes.payments.withdraw, { body: withdrawal }),
    ).rejects.toMatchObject({ code: 'PAYMENT_PASSWORD_INCORRECT' });
    expect(ask).not.toHaveBeenCalled();
  });
});
