import { LocalPushService, type LocalSubscription } from '@teltlk/test-kit';
import { groupConversationId, type PushPayload } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { userApi } from '../../test/fixtures.js';
import { loadVapidKeys } from './vapid.js';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { socketUrl, TestSocket } from '../../test/test-client.js';

/**
 * Web Push against a push service on loopback that checks every push as a browser
 * vendor's does (VAPID signature and audience, aes128gcm encryption) and decrypts it with
 * the subscription's private key: what reaches which device, in which words.
 */
describe.each(dialects)('web push on $dialect', ({ dialect }) => {
  let t: TestApp;
  let pushes: LocalPushService;
  let url: string;
  const { call, send, friends } = userApi(() => t);
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    pushes = await LocalPushService.start();
    t = await createTestApp({ dialect, env: { PUSH_HOSTS: '127.0.0.1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await t.close();
    await pushes.close();
  });

  async function subscribe(user: RegisteredUser): Promise<LocalSubscription> {
    const key = await call(user, 'GET', '/push/key');
    const subscription = pushes.subscribe(key.json<{ publicKey: string }>().publicKey);
    const response = await call(user, 'PUT', '/push/subscription', subscription);
    expect(response.statusCode, response.body).toBe(204);
    return subscription;
  }

  /** A second device of the same person: a new session from a password sign-in. */
  async function secondDevice(user: RegisteredUser): Promise<RegisteredUser> {
    const response = await t.call('POST', '/api/v1/auth/login', {
      body: { account: user.destination, password: PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { ...user, token: response.json<{ token: string }>().token };
  }

  const payloads = (subscription: LocalSubscription) =>
    pushes.received(subscription.endpoint).map((push) => JSON.parse(push.payload) as PushPayload);

  async function settled(): Promise<void> {
    await t.ctx.services.push.drain();
  }

  it('sends a test push to this device, signed and encrypted as push services require', async () => {
    const ada = await t.register({ uiLanguage: 'zh_CN' });
    expectError(await call(ada, 'POST', '/push/test'), 'PUSH_NOT_SUBSCRIBED');
    const device = await subscribe(ada);
    const response = await call(ada, 'POST', '/push/test');
    expect(response.statusCode, response.body).toBe(204);
    expect(payloads(device)).toEqual([
      { title: 'Teltlk', body: '此设备的通知功能正常。', tag: 'test', path: '/pages/user/message' },
    ]);
    expect(pushes.refusals).toEqual([]);
  });

  it('refuses a subscription that points at a host that is not a push service', async () => {
    const ada = await t.register();
    const response = await call(ada, 'PUT', '/push/subscription', {
      endpoint: 'http://169.254.169.254/latest/meta-data',
      keys: {
        p256dh:
          'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
    });
    expectError(response, 'PUSH_ENDPOINT_REFUSED');
  });

  it('pushes a message once to each offline device of the reader, none to online ones or the sender', async () => {
    const ada = await t.register({ uiLanguage: 'en_US' });
    const bob = await t.register({ nickname: 'Bob' });
    const chat = await friends(ada, bob);
    const adaPhone = await subscribe(ada);
    const adaLaptop = await secondDevice(ada);
    const laptopPushes = await subscribe(adaLaptop);
    const bobDevice = await subscribe(bob);
    // The laptop is online: it gets the message over its socket instead.
    sockets.push(await TestSocket.connect(url, adaLaptop.token));
    // Subscribing the laptop told the phone, which was away (a test of its own below).
    const messages = (device: LocalSubscription) =>
      payloads(device).filter(({ tag }) => tag !== 'security');

    await send(bob, chat, { kind: 'text', text: 'See you at eight' });
    await settled();
    // Without previews: only that a message came, in the reader's interface language.
    expect(messages(adaPhone)).toEqual([
      {
        title: 'You have a new message',
        body: '',
        tag: chat,
        path: `/pages/home/chat?conversationId=${chat}`,
        conversationId: chat,
      },
    ]);
    const pushed = pushes.received(adaPhone.endpoint).at(-1);
    expect(pushed).toMatchObject({ urgency: 'high', ttl: 86_400 });
    expect(pushed!.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(payloads(laptopPushes)).toEqual([]);
    expect(payloads(bobDevice)).toEqual([]);

    // With previews: who wrote, and what (a photo by its label).
    await call(ada, 'PATCH', '/me/settings', { notificationPreviews: true });
    await send(bob, chat, { kind: 'text', text: 'Bring the map' });
    await settled();
    expect(messages(adaPhone).at(-1)).toMatchObject({ title: 'Bob', body: 'Bring the map' });

    // Notifications off: nothing.
    await call(ada, 'PATCH', '/me/settings', { notifications: false });
    await send(bob, chat, { kind: 'text', text: 'Hello?' });
    await settled();
    expect(messages(adaPhone)).toHaveLength(2);
    expect(pushes.refusals).toEqual([]);
  });

  it('keeps a muted chat quiet, except for an @mention in a group', async () => {
    const [owner, ada] = await Promise.all([
      t.register({ nickname: 'Owner' }),
      t.register({ nickname: 'Ada', uiLanguage: 'en_US' }),
    ]);
    await friends(owner, ada);
    const group = await call(owner, 'POST', '/groups', {
      name: 'Hikers',
      memberIds: [ada.user.id],
    });
    expect(group.statusCode, group.body).toBe(200);
    const groupId = group.json<{ id: string }>().id;
    const chat = groupConversationId(groupId);
    const device = await subscribe(ada);
    await call(ada, 'PATCH', '/me/settings', { notificationPreviews: true });
    await call(ada, 'PATCH', `/conversations/${chat}`, { muted: true });

    await send(owner, chat, { kind: 'text', text: 'Anyone there?' });
    await send(owner, chat, { kind: 'text', text: '@Ada route?', mentions: [ada.user.id] });
    await settled();
    expect(payloads(device)).toEqual([
      expect.objectContaining({ title: 'Hikers', body: 'Owner: @Ada route?', tag: chat }),
    ]);

    // Silenced by the owner for an hour, Ada may not write, and still hears the group.
    await call(ada, 'PATCH', `/conversations/${chat}`, { muted: false });
    const silenced = await call(owner, 'PUT', `/groups/${groupId}/members/${ada.user.id}/mute`, {
      seconds: 3600,
    });
    expect(silenced.statusCode, silenced.body).toBe(204);
    await send(owner, chat, { kind: 'text', text: 'Meet at the gate' });
    await settled();
    expect(payloads(device).at(-1)).toMatchObject({ body: 'Owner: Meet at the gate' });
  });

  it('pushes messages sent at once in several chats, each to its own readers', async () => {
    const [ada, bob, cai, dan] = await Promise.all([
      t.register({ uiLanguage: 'en_US' }),
      t.register({ nickname: 'Bob' }),
      t.register({ nickname: 'Cai' }),
      t.register({ nickname: 'Dan' }),
    ]);
    const [withBob, withCai, withDan] = await Promise.all([
      friends(ada, bob),
      friends(ada, cai),
      friends(ada, dan),
    ]);
    const adaDevice = await subscribe(ada);
    const caiDevice = await subscribe(cai);
    await call(ada, 'PATCH', '/me/settings', { notificationPreviews: true });
    // A chat is there to mute once its first message is.
    await send(dan, withDan, { kind: 'text', text: 'Hi' });
    const muted = await call(ada, 'PATCH', `/conversations/${withDan}`, { muted: true });
    expect(muted.statusCode, muted.body).toBe(200);
    await settled();
    const before = payloads(adaDevice).length;

    // Sent together, they are written in one batch or a few; each is pushed on its own.
    await Promise.all([
      send(bob, withBob, { kind: 'text', text: 'From Bob' }),
      send(cai, withCai, { kind: 'text', text: 'From Cai' }),
      send(dan, withDan, { kind: 'text', text: 'From Dan, muted' }),
      send(ada, withCai, { kind: 'text', text: 'From Ada' }),
    ]);
    await settled();
    const toAda = payloads(adaDevice)
      .slice(before)
      .map(({ title, body, tag }) => ({ title, body, tag }));
    expect(toAda).toHaveLength(2);
    expect(toAda).toEqual(
      expect.arrayContaining([
        { title: 'Bob', body: 'From Bob', tag: withBob },
        { title: 'Cai', body: 'From Cai', tag: withCai },
      ]),
    );
    expect(payloads(caiDevice).map(({ tag }) => tag)).toEqual([withCai]);
  });

  it('drops a subscription the push service says is gone, and one whose session signed out', async () => {
    const [ada, bob] = await Promise.all([t.register(), t.register()]);
    const chat = await friends(ada, bob);
    const device = await subscribe(ada);
    pushes.expire(device.endpoint);
    await send(bob, chat, { kind: 'text', text: 'one' });
    await settled();
    const stored = () =>
      t.ctx.db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', ada.user.id)
        .execute();
    expect(await stored()).toEqual([]);

    const again = await subscribe(ada);
    expect(await stored()).toHaveLength(1);
    await call(ada, 'POST', '/auth/logout');
    await send(bob, chat, { kind: 'text', text: 'two' });
    await settled();
    expect(payloads(again)).toEqual([]);
  });

  it('tells the devices that are away of a sensitive action, never the one it was done on', async () => {
    const ada = await t.register({ uiLanguage: 'zh_TW' });
    const phone = await subscribe(ada);
    const desktop = await secondDevice(ada);
    // Subscribing the desktop is itself a sensitive action, done on the desktop.
    const desktopDevice = await subscribe(desktop);
    await settled();
    expect(payloads(phone)).toEqual([
      {
        title: '帳號安全',
        body: '您的帳號在另一台裝置上有變更。如非本人操作，請查看安全紀錄。',
        tag: 'security',
        path: '/pages/user/securityActivity',
      },
    ]);
    expect(payloads(desktopDevice)).toEqual([]);
  });

  it("keeps a browser's endpoint with the account whose live session subscribed it", async () => {
    const [ada, bob] = await Promise.all([t.register(), t.register()]);
    const adas = await subscribe(ada);
    // Whoever learns the endpoint cannot move Ada's pushes to an account of theirs.
    const taken = await call(bob, 'PUT', '/push/subscription', {
      endpoint: adas.endpoint,
      keys: pushes.subscribe(
        (await call(bob, 'GET', '/push/key')).json<{ publicKey: string }>().publicKey,
      ).keys,
    });
    expectError(taken, 'PUSH_ENDPOINT_IN_USE');
    expect((await call(ada, 'POST', '/push/test')).statusCode).toBe(204);
    expect(payloads(adas).map(({ tag }) => tag)).toEqual(['test']);
    // Once Ada signs out in that browser, its next account may have it.
    await call(ada, 'POST', '/auth/logout');
    const bobs = await call(bob, 'PUT', '/push/subscription', { ...adas });
    expect(bobs.statusCode, bobs.body).toBe(204);
  });

  it('brings a mining reminder to a team member who is away', async () => {
    const [ada, bob] = await Promise.all([
      t.register({ nickname: 'Ada' }),
      t.register({ uiLanguage: 'en_US' }),
    ]);
    const device = await subscribe(bob);
    const { events, users } = t.ctx.services;
    const by = (await users.cardsOf([ada.user.id])).get(ada.user.id)!;
    const pending = await t.ctx.db.transaction().execute((trx) =>
      events.append(trx, bob.user.id, {
        type: 'mining',
        reason: 'nudged',
        points: 0,
        by,
      }),
    );
    events.publish([pending]);
    await settled();
    expect(payloads(device)).toEqual([
      expect.objectContaining({ title: 'Time to mine', body: 'Ada reminds you to check in.' }),
    ]);
  });

  it('keeps its VAPID keys in the data folder, for the next start', () => {
    const kept = loadVapidKeys(null, t.dataDir);
    expect(kept.publicKey).toBe(t.ctx.services.push.publicKey().publicKey);
    expect(statSync(join(t.dataDir, 'vapid-keys.json')).mode & 0o777).toBe(0o600);
  });
});
