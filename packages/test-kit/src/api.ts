/**
 * Accounts on a running server, made through its public REST API as a person would: a
 * registration code to an e-mail address (read back from the development outbox), then
 * the account; friends by a request and its acceptance.
 */

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** The client address the server sees (X-Forwarded-For; the server must trust loopback). */
  address?: string;
}

/** A JSON call to the API (`/api/v1` + path); throws with the answer on any error status. */
export async function callApi<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.address) headers['x-forwarded-for'] = options.address;
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The outbox's codes; its notices have no purpose or code. */
interface OutboxMessage {
  kind: 'code' | 'notice';
  destination: string;
  purpose?: string;
  code?: string;
}

/** The newest code the server wrote to its development outbox for a destination. */
export async function codeFor(
  baseUrl: string,
  destination: string,
  purpose: string,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { messages } = await callApi<{ messages: OutboxMessage[] }>(
      baseUrl,
      'GET',
      '/dev/outbox',
    );
    const found = messages.find(
      (m) => m.kind === 'code' && m.destination === destination && m.purpose === purpose,
    );
    if (found?.code !== undefined) return found.code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${purpose} code for ${destination} in the outbox`);
}

export interface NewAccount {
  nickname: string;
  password: string;
  email?: string;
  country?: string;
  motherTongue?: string;
  uiLanguage?: string;
  address?: string;
}

export interface Account {
  userId: string;
  token: string;
  teltlkId: string;
  nickname: string;
  email: string;
  password: string;
}

let accounts = 0;

/** Registers an account through the public API (for tests whose subject is not sign-up). */
export async function registerAccount(baseUrl: string, input: NewAccount): Promise<Account> {
  accounts += 1;
  const local = input.nickname.toLowerCase().replace(/\W/g, '') || 'person';
  const email =
    input.email ?? `${local}.${process.pid}.${accounts}.${Date.now().toString(36)}@example.com`;
  const channel = { channel: 'email', destination: email };
  const address = input.address;
  await callApi(baseUrl, 'POST', '/auth/codes', {
    body: { purpose: 'register', ...channel },
    ...(address ? { address } : {}),
  });
  const code = await codeFor(baseUrl, email, 'register');
  const { ticket } = await callApi<{ ticket: string }>(baseUrl, 'POST', '/auth/codes/verify', {
    body: { purpose: 'register', ...channel, code },
    ...(address ? { address } : {}),
  });
  const { user, token } = await callApi<{ token: string; user: { id: string; teltlkId: string } }>(
    baseUrl,
    'POST',
    '/auth/register',
    {
      body: {
        ticket,
        nickname: input.nickname,
        password: input.password,
        country: input.country ?? 'GB',
        motherTongue: input.motherTongue ?? 'en',
        ...(input.uiLanguage ? { uiLanguage: input.uiLanguage } : {}),
      },
      ...(address ? { address } : {}),
    },
  );
  return {
    userId: user.id,
    token,
    teltlkId: user.teltlkId,
    nickname: input.nickname,
    email,
    password: input.password,
  };
}

/** Makes two accounts friends: a request from `from`, accepted by `to`. */
export async function befriend(
  baseUrl: string,
  from: { userId: string; token: string },
  to: { userId: string; token: string },
): Promise<void> {
  const request = await callApi<{ id: string }>(baseUrl, 'POST', '/friend-requests', {
    body: { userId: to.userId },
    token: from.token,
  });
  await callApi(baseUrl, 'POST', `/friend-requests/${request.id}/accept`, { token: to.token });
}
