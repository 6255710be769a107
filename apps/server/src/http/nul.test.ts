import { singleConversationId, type MyGroup } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbWatch } from '../test/db-digest.js';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  type RegisteredUser,
  type TestApp,
} from '../test/harness.js';

/**
 * A NUL character in any text of a request is refused before it reaches a query: on
 * PostgreSQL each of these was a 500 ("invalid byte sequence for encoding UTF8: 0x00"),
 * on SQLite the text was stored.
 */
describe.each(dialects)('NUL characters on $dialect', ({ dialect }) => {
  let t: TestApp;
  let owner: RegisteredUser;
  let friend: RegisteredUser;
  let stranger: RegisteredUser;
  let group: MyGroup;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    owner = await t.register();
    friend = await t.register();
    stranger = await t.register();
    const request = await t.call('POST', '/api/v1/friend-requests', {
      token: owner.token,
      body: { userId: friend.user.id },
    });
    await t.call('POST', `/api/v1/friend-requests/${request.json<{ id: string }>().id}/accept`, {
      token: friend.token,
    });
    const created = await t.call('POST', '/api/v1/groups', {
      token: owner.token,
      body: { name: 'Pi', memberIds: [friend.user.id] },
    });
    expect(created.statusCode, created.body).toBe(200);
    group = created.json<MyGroup>();
    await t.call('PATCH', `/api/v1/groups/${group.id}`, {
      token: owner.token,
      body: { verification: 'approval' },
    });
  });
  afterAll(() => t?.close());

  const NUL = 'a\u0000b';
  const cases: {
    name: string;
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
    url: () => string;
    body?: () => unknown;
    as?: () => RegisteredUser | null;
    path: string;
  }[] = [
    {
      name: 'a friend remark',
      method: 'PATCH',
      url: () => `/api/v1/friends/${friend.user.id}`,
      body: () => ({ remark: NUL }),
      path: 'remark',
    },
    {
      name: 'a group name',
      method: 'POST',
      url: () => '/api/v1/groups',
      body: () => ({ name: NUL, memberIds: [friend.user.id] }),
      path: 'name',
    },
    {
      name: 'a group notice',
      method: 'PATCH',
      url: () => `/api/v1/groups/${group.id}`,
      body: () => ({ notice: NUL }),
      path: 'notice',
    },
    {
      name: 'a group nickname',
      method: 'PATCH',
      url: () => `/api/v1/groups/${group.id}/me`,
      body: () => ({ nickname: NUL }),
      path: 'nickname',
    },
    {
      name: 'a message to join a group',
      method: 'POST',
      url: () => `/api/v1/groups/${group.id}/join`,
      body: () => ({ message: NUL }),
      as: () => stranger,
      path: 'message',
    },
    {
      name: 'the text of a message, deep in the body',
      method: 'POST',
      url: () => '/api/v1/messages',
      body: () => ({
        conversationId: singleConversationId(owner.user.id, friend.user.id),
        clientMsgId: 'nul-in-text',
        content: { kind: 'text', text: NUL },
      }),
      path: 'content.text',
    },
    {
      name: 'a sign-in account',
      method: 'POST',
      url: () => '/api/v1/auth/login',
      body: () => ({ account: `${owner.destination}\u0000`, password: PASSWORD }),
      as: () => null,
      path: 'account',
    },
    {
      name: 'a user search',
      method: 'GET',
      url: () => '/api/v1/users/search?q=a%00b',
      path: 'q',
    },
    {
      name: 'a group member search',
      method: 'GET',
      url: () => `/api/v1/groups/${group.id}/members?q=a%00b`,
      path: 'q',
    },
    {
      name: 'a group id in the path',
      method: 'GET',
      url: () => `/api/v1/groups/${group.id}%00`,
      path: 'id',
    },
    {
      name: 'a session id in the path',
      method: 'DELETE',
      url: () => '/api/v1/sessions/%00abc',
      path: 'id',
    },
    {
      name: 'an application id in the path',
      method: 'POST',
      url: () => '/api/v1/group-applications/%00/accept',
      path: 'id',
    },
    {
      name: 'a key of the body',
      method: 'PATCH',
      url: () => '/api/v1/me',
      body: () => ({ nickname: 'Ada', 'x\u0000': 1 }),
      path: 'x\u0000',
    },
  ];

  it.each(cases)('refuses one in $name and writes nothing', async (c) => {
    const watch = new DbWatch(t.ctx.db, t.ctx.dialect);
    await watch.reset();
    const as = c.as ? c.as() : owner;
    const response = await t.call(c.method, c.url(), {
      ...(as ? { token: as.token } : {}),
      ...(c.body ? { body: c.body() } : {}),
    });
    const error = expectError(response, 'VALIDATION_FAILED');
    expect(error.issues).toEqual([{ path: c.path, rule: 'invalid' }]);
    expect(await watch.changes()).toEqual([]);
  });

  it('refuses a body nested deeper than the call stack goes, without a 500', async () => {
    const response = await t.call('PATCH', '/api/v1/me', {
      token: owner.token,
      headers: { 'content-type': 'application/json' },
      body: `${'['.repeat(30_000)}"\\u0000"${']'.repeat(30_000)}`,
    });
    expectError(response, 'VALIDATION_FAILED');
  });
});
