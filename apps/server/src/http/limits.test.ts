import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { RateRule, LimitName } from '../modules/limits/rules.js';
import { HOUR } from '../lib/clock.js';
import { TestSocket } from '../test/test-client.js';
import { befriend } from '../test/fixtures.js';
import {
  createTestApp,
  dialects,
  expectError,
  uniqueEmail,
  type RegisteredUser,
  type TestApp,
  type TestAppOptions,
} from '../test/harness.js';

// The harness is test code; reading the environment here does not configure the server.
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

/** Three an hour, for whichever classes a test looks at. */
const three: RateRule = { limit: 3, windowMs: HOUR };

const open: TestApp[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function appWith(
  rules: Partial<Record<LimitName, RateRule>>,
  options: TestAppOptions = {},
): Promise<TestApp> {
  const t = await createTestApp({ ...options, rateLimits: { scale: 1, rules } });
  open.push(t);
  return t;
}

function login(t: TestApp, ip: string, headers: Record<string, string> = {}) {
  return t.call('POST', '/api/v1/auth/login', {
    ip,
    headers,
    body: { account: uniqueEmail(), password: 'Wrong-passw0rd' },
  });
}

function expectLimited(response: LightMyRequestResponse): void {
  expectError(response, 'RATE_LIMITED');
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

function expectNotLimited(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).not.toBe(429);
}

describe.each(dialects)('rate limits ($dialect)', ({ dialect }) => {
  it('counts password sign-ins per client address', async () => {
    const t = await appWith({ loginPerAddress: three }, { dialect });
    for (let i = 0; i < 3; i += 1) expectNotLimited(await login(t, '203.0.113.5'));
    expectLimited(await login(t, '203.0.113.5'));
    expectNotLimited(await login(t, '203.0.113.6'));
  });

  it('counts every address of an IPv6 /64 as one client', async () => {
    const t = await appWith({ loginPerAddress: three }, { dialect });
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:aaaa::9'])
      expectNotLimited(await login(t, ip));
    expectLimited(await login(t, '2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expectNotLimited(await login(t, '2001:db8:1:3::1'));
  });

  it('ignores X-Forwarded-For unless the hop it comes from is a trusted proxy', async () => {
    const t = await appWith({ loginPerAddress: three }, { dialect });
    for (let i = 0; i < 3; i += 1)
      expectNotLimited(await login(t, '203.0.113.7', { 'x-forwarded-for': `198.51.100.${i}` }));
    expectLimited(await login(t, '203.0.113.7', { 'x-forwarded-for': '198.51.100.99' }));
  });

  it('believes a trusted proxy, but not what the client wrote before it', async () => {
    const t = await appWith(
      { loginPerAddress: three },
      { dialect, env: { TRUST_PROXY: '127.0.0.1' } },
    );
    // Through the proxy, each client has its own bucket.
    for (let i = 0; i < 5; i += 1)
      expectNotLimited(await login(t, '127.0.0.1', { 'x-forwarded-for': `198.51.100.${i}` }));
    // A client that spoofs an address in front of the one the proxy saw changes nothing.
    for (let i = 0; i < 3; i += 1)
      expectNotLimited(
        await login(t, '127.0.0.1', { 'x-forwarded-for': `10.0.0.${i}, 198.51.100.200` }),
      );
    expectLimited(await login(t, '127.0.0.1', { 'x-forwarded-for': '10.0.0.9, 198.51.100.200' }));
    // A hop that is not the proxy is believed nothing.
    for (let i = 0; i < 3; i += 1)
      expectNotLimited(await login(t, '203.0.113.8', { 'x-forwarded-for': `198.51.100.${i}` }));
    expectLimited(await login(t, '203.0.113.8', { 'x-forwarded-for': '198.51.100.77' }));
  });

  it('meters the answers that say whether an account exists, per address', async () => {
    const t = await appWith({ accountAnswersPerAddress: three }, { dialect });
    const known = await t.register();
    const ask = (destination: string, ip = '203.0.113.9') =>
      t.call('POST', '/api/v1/auth/codes', {
        ip,
        body: { purpose: 'register', channel: 'email', destination },
      });
    for (let i = 0; i < 3; i += 1) expectError(await ask(known.destination), 'ACCOUNT_REGISTERED');
    expectLimited(await ask(known.destination));
    // Past the meter nothing about accounts is answered, not even a code sent.
    expectError(await ask(uniqueEmail()), 'RATE_LIMITED');
    expect((await ask(uniqueEmail(), '203.0.113.10')).statusCode).toBe(200);
  });

  it('limits code sends per address', async () => {
    const t = await appWith({ codeSendPerAddress: three }, { dialect });
    const send = (ip: string) =>
      t.call('POST', '/api/v1/auth/codes', {
        ip,
        body: { purpose: 'register', channel: 'email', destination: uniqueEmail() },
      });
    for (let i = 0; i < 3; i += 1) expect((await send('198.51.100.20')).statusCode).toBe(200);
    expectLimited(await send('198.51.100.20'));
    expect((await send('198.51.100.21')).statusCode).toBe(200);
  });

  it('holds all SMS to one budget, whoever asks', async () => {
    const t = await appWith({ smsGlobal: three }, { dialect });
    const send = (destination: string) =>
      t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'phone', destination },
      });
    for (const number of ['+8613800000001', '+8613911110002', '+8613722220003'])
      expect((await send(number)).statusCode).toBe(200);
    expectLimited(await send('+8613633330004'));
    // E-mail codes are not in it.
    expect(
      (
        await t.call('POST', '/api/v1/auth/codes', {
          body: { purpose: 'register', channel: 'email', destination: uniqueEmail() },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('meters those answers in all, whatever the address', async () => {
    const t = await appWith({ accountAnswersGlobal: three }, { dialect });
    for (let i = 0; i < 3; i += 1)
      expectError(
        await t.call('POST', '/api/v1/auth/login', {
          body: { account: uniqueEmail(), password: 'Wrong-passw0rd' },
        }),
        'ACCOUNT_NOT_FOUND',
      );
    expectError(
      await t.call('POST', '/api/v1/auth/login', {
        body: { account: uniqueEmail(), password: 'Wrong-passw0rd' },
      }),
      'RATE_LIMITED',
    );
  });

  it('limits code sends per phone-number prefix, against SMS pumping', async () => {
    const t = await appWith({ codeSendPerPrefix: three }, { dialect });
    const send = (destination: string) =>
      t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'phone', destination },
      });
    for (const last of ['0001', '0002', '0003'])
      expect((await send(`+861380013${last}`)).statusCode).toBe(200);
    expectLimited(await send('+8613800130004'));
    expect((await send('+8613900130004')).statusCode).toBe(200);
  });

  it('limits code checks per destination across addresses', async () => {
    const t = await appWith({ codeCheckPerDestination: three }, { dialect });
    const destination = uniqueEmail();
    const sent = await t.call('POST', '/api/v1/auth/codes', {
      body: { purpose: 'register', channel: 'email', destination },
    });
    expect(sent.statusCode).toBe(200);
    const verify = (code: string) =>
      t.call('POST', '/api/v1/auth/codes/verify', {
        body: { purpose: 'register', channel: 'email', destination, code },
      });
    for (let i = 0; i < 3; i += 1) expectError(await verify('000000'), 'CODE_INVALID');
    expectLimited(await verify(t.codeFor(destination, 'register')));
  });

  it('limits registrations per address before any hashing', async () => {
    const t = await appWith({ registerPerAddress: three }, { dialect });
    const register = () =>
      t.call('POST', '/api/v1/auth/register', {
        ip: '203.0.113.11',
        body: {
          ticket: 'x'.repeat(43),
          nickname: 'Mallory',
          password: 'Passw0rd!',
          country: 'CN',
          motherTongue: 'zh',
        },
      });
    for (let i = 0; i < 3; i += 1) expectError(await register(), 'TICKET_INVALID');
    expectLimited(await register());
  });

  describe('per user', () => {
    async function users(t: TestApp, n: number): Promise<RegisteredUser[]> {
      const made: RegisteredUser[] = [];
      for (let i = 0; i < n; i += 1) made.push(await t.register());
      return made;
    }

    it('limits contact searches', async () => {
      const t = await appWith({ searchPerUser: three }, { dialect });
      const [a, b] = await users(t, 2);
      const search = (user: RegisteredUser) =>
        t.call('GET', `/api/v1/users/search?q=${encodeURIComponent(uniqueEmail())}`, {
          token: user.token,
        });
      for (let i = 0; i < 3; i += 1) expectNotLimited(await search(a!));
      expectLimited(await search(a!));
      expectNotLimited(await search(b!));
    });

    it('limits friend requests per pair and per user', async () => {
      const t = await appWith(
        { friendRequestPerPair: { limit: 2, windowMs: HOUR }, friendRequestPerUser: three },
        { dialect },
      );
      const [a, b, c, d, e] = await users(t, 5);
      const ask = (from: RegisteredUser, to: RegisteredUser) =>
        t.call('POST', '/api/v1/friend-requests', {
          token: from.token,
          body: { userId: to.user.id },
        });
      expect((await ask(a!, b!)).statusCode).toBe(200);
      expect((await ask(a!, b!)).statusCode).toBe(200);
      expectLimited(await ask(a!, b!));
      expect((await ask(a!, c!)).statusCode).toBe(200);
      expectLimited(await ask(a!, d!));
      expect((await ask(e!, d!)).statusCode).toBe(200);
    });

    it('limits group applications per group and per user', async () => {
      const t = await appWith(
        { groupApplicationPerPair: { limit: 2, windowMs: HOUR }, groupApplicationPerUser: three },
        { dialect },
      );
      const [owner, friend, applicant] = await users(t, 3);
      const request = await t.ctx.services.contacts.sendRequest(
        { userId: owner!.user.id, sessionId: 'test' },
        { userId: friend!.user.id },
      );
      await t.ctx.services.contacts.acceptRequest(
        { userId: friend!.user.id, sessionId: 'test' },
        request.id,
      );
      const groupIds: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const created = await t.call('POST', '/api/v1/groups', {
          token: owner!.token,
          body: { memberIds: [friend!.user.id] },
        });
        expect(created.statusCode, created.body).toBe(200);
        const id = created.json<{ id: string }>().id;
        const verification = await t.call('PATCH', `/api/v1/groups/${id}`, {
          token: owner!.token,
          body: { verification: 'approval' },
        });
        expect(verification.statusCode, verification.body).toBe(200);
        groupIds.push(id);
      }
      const apply = (groupId: string) =>
        t.call('POST', `/api/v1/groups/${groupId}/join`, {
          token: applicant!.token,
          body: { message: 'hi' },
        });
      expectNotLimited(await apply(groupIds[0]!));
      expectNotLimited(await apply(groupIds[0]!));
      expectLimited(await apply(groupIds[0]!));
      expectNotLimited(await apply(groupIds[1]!));
      expectLimited(await apply(groupIds[1]!));
    });

    it('limits group creations and invitations', async () => {
      const t = await appWith(
        { groupCreatePerUser: { limit: 2, windowMs: HOUR }, groupInvitePerUser: three },
        { dialect },
      );
      const [owner, friend, other] = await users(t, 3);
      await befriend(t, owner!, friend!);
      await befriend(t, owner!, other!);
      const create = () =>
        t.call('POST', '/api/v1/groups', {
          token: owner!.token,
          body: { memberIds: [friend!.user.id] },
        });
      const created = await create();
      expect(created.statusCode, created.body).toBe(200);
      expect((await create()).statusCode).toBe(200);
      expectLimited(await create());
      const invite = () =>
        t.call('POST', `/api/v1/groups/${created.json<{ id: string }>().id}/members`, {
          token: owner!.token,
          body: { userIds: [other!.user.id] },
        });
      for (let i = 0; i < 3; i += 1) expectNotLimited(await invite());
      expectLimited(await invite());
    });

    it('limits uploads before reading them', async () => {
      const t = await appWith({ uploadPerUser: three }, { dialect });
      const [a] = await users(t, 1);
      const upload = () =>
        t.call('POST', '/api/v1/me/avatar', {
          token: a!.token,
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
          body: '--x--',
        });
      for (let i = 0; i < 3; i += 1) expectNotLimited(await upload());
      expectLimited(await upload());
    });

    it('limits translation requests', async () => {
      const t = await appWith({ translatePerUser: three }, { dialect });
      const [a] = await users(t, 1);
      const preview = () =>
        t.call('POST', '/api/v1/translations/preview', {
          token: a!.token,
          body: { text: 'hello there', lang: 'es' },
        });
      for (let i = 0; i < 3; i += 1) expectNotLimited(await preview());
      expectLimited(await preview());
    });
  });
});

describe('message limits', () => {
  let counter = 0;
  const send = (t: TestApp, from: RegisteredUser, conversationId: string) =>
    t.call('POST', '/api/v1/messages', {
      token: from.token,
      body: {
        conversationId,
        clientMsgId: `limit-test-${(counter += 1)}`,
        content: { kind: 'text', text: `message ${counter}` },
      },
    });
  const chatOf = (a: RegisteredUser, b: RegisteredUser) =>
    `si_${[a.user.id, b.user.id].sort().join('_')}`;

  it('limits sends per user, and read marks', async () => {
    const t = await appWith({ sendPerUser: three, readPerUser: three });
    const [a, b] = [await t.register(), await t.register()];
    await befriend(t, a, b);
    const chat = chatOf(a, b);
    for (let i = 0; i < 3; i += 1) expect((await send(t, a, chat)).statusCode).toBe(200);
    expectLimited(await send(t, a, chat));
    expect((await send(t, b, chat)).statusCode).toBe(200);
    const read = () =>
      t.call('POST', `/api/v1/conversations/${chat}/read`, { token: b.token, body: { seq: 1 } });
    for (let i = 0; i < 3; i += 1) expect((await read()).statusCode).toBe(204);
    expectLimited(await read());
  });

  it('slows a member flooding a large group before the fan-out, not one in a small group', async () => {
    const t = await appWith({ largeGroupSendPerUser: three });
    const [owner, member] = [await t.register(), await t.register()];
    await befriend(t, owner, member);
    const groupIds: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const created = await t.call('POST', '/api/v1/groups', {
        token: owner.token,
        body: { memberIds: [member.user.id] },
      });
      groupIds.push(created.json<{ id: string }>().id);
    }
    const [large, small] = groupIds as [string, string];
    // Stands in for a group of thousands: the limit reads the group's member count.
    await t.ctx.db
      .updateTable('groups')
      .set({ member_count: 5_000 })
      .where('id', '=', large)
      .execute();
    for (let i = 0; i < 3; i += 1)
      expect((await send(t, member, `sg_${large}`)).statusCode).toBe(200);
    expectLimited(await send(t, member, `sg_${large}`));
    for (let i = 0; i < 5; i += 1)
      expect((await send(t, member, `sg_${small}`)).statusCode).toBe(200);
  });

  it('drops typing hints past the limit, quietly', async () => {
    const t = await appWith({ typingPerUser: three });
    const [a, b] = [await t.register(), await t.register()];
    await befriend(t, a, b);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/ws`;
    const [sa, sb] = [
      await TestSocket.connect(url, a.token),
      await TestSocket.connect(url, b.token),
    ];
    const chat = chatOf(a, b);
    // The chat exists once it has a message.
    expect((await send(t, a, chat)).statusCode).toBe(200);
    await sb.next((frame) => frame.t === 'message');
    // Ten hints through the service, which relays each (or drops it) before it resolves.
    await Promise.all(
      Array.from({ length: 10 }, () => t.ctx.services.messages.typing(a.user.id, chat)),
    );
    // A message after the hints, on the same socket: once it arrives, so has every hint.
    sa.send({
      t: 'send',
      rid: 'marker',
      conversationId: chat,
      clientMsgId: 'marker-after-typing',
      content: { kind: 'text', text: 'done' },
    });
    await sb.next((frame) => frame.t === 'message');
    expect(sb.frames.filter((frame) => frame.t === 'typing')).toHaveLength(3);
    expect(sa.frames.filter((frame) => frame.t === 'error')).toHaveLength(0);
    sa.ws.close();
    sb.ws.close();
  });
});

describe.runIf(TEST_REDIS_URL)('rate limits across nodes', () => {
  it('holds one address to one limit whichever node it reaches', async () => {
    const env = { REDIS_URL: TEST_REDIS_URL! };
    const a = await appWith({ loginPerAddress: three }, { env });
    const b = await appWith({ loginPerAddress: three }, { env });
    const ip = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    expectNotLimited(await login(a, ip));
    expectNotLimited(await login(b, ip));
    expectNotLimited(await login(a, ip));
    expectLimited(await login(b, ip));
  });
});
