import type { RunningPiSandbox } from '@teltlk/pi-sandbox';
import {
  CODE_RESEND_SECONDS,
  STEP_UP_WINDOW_SECONDS,
  singleConversationId,
  type AddressUndoView,
  type AuthResult,
  type Me,
  type SecurityActivityResult,
  type ServerFrame,
  type StepUpStatus,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, SECOND } from '../../lib/clock.js';
import { befriend } from '../../test/fixtures.js';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  uniqueEmail,
  uniquePhone,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { piEnv, piPayer, startClockedSandbox } from '../../test/pi-sandbox.js';
import { socketUrl, TestSocket } from '../../test/test-client.js';

const WINDOW_MS = STEP_UP_WINDOW_SECONDS * SECOND;
/** A phone browser's user agent, and a desktop's that asks to sign in by QR code. */
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0 Safari/537.36';

/**
 * A session is worth stealing: whoever holds one (a QR code approved after "scan to open
 * your red envelope", or a token lifted off a device) must not be able to take the account
 * or the wallet for good. Sensitive actions ask for a proof made on the session in the
 * last minutes; a device-login session starts on hold; a replaced address is told, and can
 * put itself back; everything lands in the security activity.
 */
describe.each(dialects)('stolen sessions and step-up on $dialect', ({ dialect }) => {
  let t: TestApp;
  let sandbox: RunningPiSandbox;
  let url: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    const started = await startClockedSandbox();
    sandbox = started.sandbox;
    t = await createTestApp({ dialect, env: piEnv(sandbox) });
    started.clock.use(t.clock);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await t.close();
    await sandbox.close();
  });

  const as = (user: { token: string }) => ({
    get: (path: string) => t.call('GET', `/api/v1${path}`, { token: user.token }),
    post: (path: string, body?: unknown) =>
      t.call('POST', `/api/v1${path}`, { token: user.token, body }),
    put: (path: string, body?: unknown) =>
      t.call('PUT', `/api/v1${path}`, { token: user.token, body }),
    del: (path: string) => t.call('DELETE', `/api/v1${path}`, { token: user.token }),
  });

  const me = async (user: { token: string }) => (await as(user).get('/me')).json<Me>();
  const outbox = () => (t.ctx.outbox?.list() ?? []);

  /** A registration ticket for an address nobody has: what `/me/phone` takes. */
  async function ticketFor(channel: 'email' | 'phone', destination: string): Promise<string> {
    const body = { purpose: 'register', channel, destination };
    expect((await t.call('POST', '/api/v1/auth/codes', { body })).statusCode).toBe(200);
    const verified = await t.call('POST', '/api/v1/auth/codes/verify', {
      body: { ...body, code: t.codeFor(destination, 'register') },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json<{ ticket: string }>().ticket;
  }

  /**
   * A second session of `victim` made the way a phishing link makes one: a device-login
   * ticket shown on the thief's desktop, approved on the victim's phone.
   */
  async function deviceSession(victim: RegisteredUser): Promise<AuthResult> {
    const created = await t.call('POST', '/api/v1/auth/device-logins', {
      headers: { 'user-agent': DESKTOP },
    });
    const ticket = created.json<{ id: string; secret: string; match: string }>();
    const approved = await as(victim).post(`/device-logins/${ticket.id}/decision`, {
      approve: true,
      match: ticket.match,
      proof: { method: 'password', password: PASSWORD },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const claim = await t.ctx.services.deviceLogins.claim(ticket.id, ticket.secret);
    if (claim.state !== 'approved') throw new Error(`ticket ${claim.state}`);
    return claim.auth;
  }

  /** Pi in a person's available balance, as a recharge would bring it. */
  async function fund(userId: string, units: number): Promise<void> {
    await t.ctx.db.transaction().execute((trx) =>
      t.ctx.services.ledger.post(trx, {
        key: `security-fund:${userId}:${units}:${t.clock.now()}`,
        kind: 'recharge',
        entries: [
          { account: { app: 'outside', currency: 'PI' }, amount: -units },
          { account: { user: userId, purpose: 'available', currency: 'PI' }, amount: units },
        ],
      }),
    );
  }

  it('refuses every step of the takeover to a session made by device login', async () => {
    const { user: victim, pi } = await piPayer(t, sandbox);
    await fund(victim.user.id, 50_000_000);
    const friend = await t.register();
    await befriend(t, victim, friend);
    const thief = await deviceSession(victim);
    const before = await me(victim);

    // 1. An address of the thief's own, verified, does not replace the victim's.
    const stolenEmail = uniqueEmail();
    const replaced = await as(thief).post('/me/phone', {
      ticket: await ticketFor('email', stolenEmail),
    });
    expect(expectError(replaced, 'STEP_UP_REQUIRED').params).toEqual({ reason: 'hold' });
    expect((await me(victim)).email).toBe(before.email);

    // 2. Neither password changes without what only the victim has.
    expectError(
      await as(thief).put('/me/password', {
        currentPassword: 'Guessed123',
        newPassword: 'Thief1234',
      }),
      'PASSWORD_INCORRECT',
    );
    t.clock.advance(CODE_RESEND_SECONDS * SECOND);
    const code = await as(thief).post('/wallet/password/code', { channel: 'email' });
    // The code goes to the victim's own address, never to one the thief names.
    expect(code.json<{ sentTo: string }>().sentTo).toContain('@example.com');
    expect(outbox()[0]).toMatchObject({ kind: 'code', destination: victim.destination });
    expectError(
      await as(thief).post('/wallet/password/reset', {
        channel: 'email',
        code: '000000',
        password: '654321',
      }),
      'CODE_INVALID',
    );
    expectError(
      await as(thief).post('/wallet/password/change', {
        currentPassword: '123456',
        password: '654321',
      }),
      'STEP_UP_REQUIRED',
    );

    // 3. Pi stays bound to the victim's, no other binds, nothing leaves the wallet.
    expectError(await as(thief).del('/me/pi'), 'STEP_UP_REQUIRED');
    const thiefsPi = sandbox.emulator.signIn(`thief_${Date.now().toString(36)}`);
    expectError(
      await as(thief).post('/me/pi', { accessToken: thiefsPi.accessToken }),
      'STEP_UP_REQUIRED',
    );
    expect((await me(victim)).piUsername).toBe(pi.user.username);
    // Even with the payment password: a new device on hold does not withdraw.
    expectError(
      await as(thief).post('/wallet/withdraw', { amount: '1', password: '123456' }),
      'STEP_UP_REQUIRED',
    );
    const chat = singleConversationId(victim.user.id, friend.user.id);
    const transfer = (amount: string) =>
      as(thief).post('/wallet/transfers', {
        conversationId: chat,
        clientMsgId: `theft-${amount.replace('.', '-')}-${t.clock.now()}`,
        amount,
        note: '',
        password: '123456',
      });
    expectError(await transfer('2'), 'STEP_UP_REQUIRED');
    // A small gift still goes.
    const gift = await transfer('0.5');
    expect(gift.statusCode, gift.body).toBe(200);

    // 4. Nor does it let more devices in, or sign the victim out.
    const other = await t.call('POST', '/api/v1/auth/device-logins');
    const ticket = other.json<{ id: string; match: string }>();
    expectError(
      await as(thief).post(`/device-logins/${ticket.id}/decision`, {
        approve: true,
        match: ticket.match,
        proof: { method: 'payment', password: '123456' },
      }),
      'STEP_UP_REQUIRED',
    );
    const victims = await t.ctx.services.sessions.authenticate(victim.token);
    expectError(await as(thief).del(`/sessions/${victims.sessionId}`), 'STEP_UP_REQUIRED');
    expect((await as(victim).get('/me')).statusCode).toBe(200);

    // What is left of the account: the same address, Pi and balance but for the gift.
    const after = await me(victim);
    expect({ email: after.email, pi: after.piUsername }).toEqual({
      email: before.email,
      pi: pi.user.username,
    });
    const wallet = await as(victim).get('/wallet');
    expect(wallet.json<{ balances: { available: number }[] }>().balances[0]?.available).toBe(
      45_000_000,
    );
  });

  it('asks a session that proved itself too long ago to step up, then lets it act for a while', async () => {
    const ada = await t.register();
    t.clock.advance(WINDOW_MS + SECOND);
    const status = (await as(ada).get('/security/step-up')).json<StepUpStatus>();
    expect(status).toMatchObject({
      provenUntil: null,
      proof: null,
      heldUntil: null,
      methods: { password: true, phone: null, pi: false, payment: false },
    });
    expect(status.methods.email).toMatch(/^u\*\*\*@example\.com$/);

    // A first phone needs nothing; replacing it does.
    const firstPhone = uniquePhone();
    const added = await as(ada).post('/me/phone', { ticket: await ticketFor('phone', firstPhone) });
    expect(added.json<Me>().phone).toBe(firstPhone);
    const newPhone = uniquePhone();
    const ticket = await ticketFor('phone', newPhone);
    expect(
      expectError(await as(ada).post('/me/phone', { ticket }), 'STEP_UP_REQUIRED').params,
    ).toEqual({ reason: 'stale' });

    expectError(
      await as(ada).post('/security/step-up', { method: 'password', password: 'Wr0ngPass' }),
      'PASSWORD_INCORRECT',
    );
    const proven = await as(ada).post('/security/step-up', {
      method: 'password',
      password: PASSWORD,
    });
    expect(proven.json<StepUpStatus>()).toMatchObject({
      proof: 'password',
      provenUntil: t.clock.now() + WINDOW_MS,
    });
    expect((await as(ada).post('/me/phone', { ticket })).json<Me>().phone).toBe(newPhone);

    t.clock.advance(WINDOW_MS + SECOND);
    expectError(await as(ada).del('/sessions/nosuchsession'), 'STEP_UP_REQUIRED');
  });

  it('steps up by a code to an address already on the account, never to another', async () => {
    const ada = await t.register();
    t.clock.advance(WINDOW_MS + SECOND);
    expectError(
      await as(ada).post('/security/step-up/code', { channel: 'phone' }),
      'STEP_UP_METHOD_UNAVAILABLE',
    );
    const sent = await as(ada).post('/security/step-up/code', { channel: 'email' });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = t.codeFor(ada.destination, 'stepUp');
    expectError(
      await as(ada).post('/security/step-up', {
        method: 'code',
        channel: 'email',
        code: code === '000000' ? '111111' : '000000',
      }),
      'CODE_INVALID',
    );
    const proven = await as(ada).post('/security/step-up', {
      method: 'code',
      channel: 'email',
      code,
    });
    expect(proven.json<StepUpStatus>().proof).toBe('code');
    // Used up: it proves once.
    expectError(
      await as(ada).post('/security/step-up', { method: 'code', channel: 'email', code }),
      'CODE_INVALID',
    );
  });

  it('takes the payment password for money only, and never as the end of a hold', async () => {
    const { user: ada } = await piPayer(t, sandbox);
    await fund(ada.user.id, 30_000_000);
    t.clock.advance(WINDOW_MS + SECOND);
    const paid = await as(ada).post('/security/step-up', { method: 'payment', password: '123456' });
    expect(paid.json<StepUpStatus>().proof).toBe('payment');
    // An account action is not proven by it.
    expectError(await as(ada).del('/me/pi'), 'STEP_UP_REQUIRED');

    const desktop = await deviceSession(ada);
    const held = (await as(desktop).get('/security/step-up')).json<StepUpStatus>();
    expect(held.heldUntil).toBe(t.clock.now() + DAY);
    const onDesktop = await as(desktop).post('/security/step-up', {
      method: 'payment',
      password: '123456',
    });
    expect(onDesktop.json<StepUpStatus>().heldUntil).toBe(held.heldUntil);
    expectError(
      await as(desktop).post('/wallet/withdraw', { amount: '1', password: '123456' }),
      'STEP_UP_REQUIRED',
    );
    // The account password, typed on the new device, ends its hold.
    const lifted = await as(desktop).post('/security/step-up', {
      method: 'password',
      password: PASSWORD,
    });
    expect(lifted.json<StepUpStatus>()).toMatchObject({ heldUntil: null, proof: 'password' });
    const withdrawn = await as(desktop).post('/wallet/withdraw', {
      amount: '1',
      password: '123456',
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
  });

  it('lets an account made through Pi prove itself through Pi, and only with its own', async () => {
    const pi = sandbox.emulator.signIn(`pi_only_${Date.now().toString(36)}`);
    const login = await t.call('POST', '/api/v1/auth/pi', {
      body: { accessToken: pi.accessToken },
    });
    const { ticket } = login.json<{ ticket: string }>();
    const made = await t.call('POST', '/api/v1/auth/pi/register', {
      body: { ticket, nickname: 'Pia', country: 'NG', motherTongue: 'en' },
    });
    const pia = made.json<AuthResult>();
    t.clock.advance(WINDOW_MS + SECOND);
    const status = (await as(pia).get('/security/step-up')).json<StepUpStatus>();
    expect(status.methods).toEqual({
      password: false,
      email: null,
      phone: null,
      pi: true,
      payment: false,
    });
    expectError(
      await as(pia).post('/security/step-up', { method: 'password', password: PASSWORD }),
      'STEP_UP_METHOD_UNAVAILABLE',
    );
    const someoneElse = sandbox.emulator.signIn(`pi_other_${Date.now().toString(36)}`);
    expectError(
      await as(pia).post('/security/step-up', {
        method: 'pi',
        accessToken: someoneElse.accessToken,
      }),
      'PI_AUTH_FAILED',
    );
    const proven = await as(pia).post('/security/step-up', {
      method: 'pi',
      accessToken: pi.accessToken,
    });
    expect(proven.json<StepUpStatus>().proof).toBe('pi');
  });

  it('tells a replaced address, which can put itself back for a week, signing every device out', async () => {
    const ada = await t.register({ uiLanguage: 'zh_TW' });
    const oldEmail = ada.destination;
    const newEmail = uniqueEmail();
    const changed = await as(ada).post('/me/phone', { ticket: await ticketFor('email', newEmail) });
    expect(changed.json<Me>().email).toBe(newEmail);

    const notice = outbox().find(
      (message) => message.kind === 'notice' && message.destination === oldEmail,
    );
    if (notice?.kind !== 'notice') throw new Error('no notice to the old address');
    expect(notice.subject).toBe('Teltlk 信箱已更換');
    expect(notice.text).toContain(`${newEmail.slice(0, 1)}***@example.com`);
    const link = /https?:\/\/\S+\/#\/security\/undo\?token=([\w-]+)/.exec(notice.text);
    if (!link?.[1]) throw new Error(`no undo link in: ${notice.text}`);
    const token = link[1];

    const view = await t.call('GET', `/api/v1/security/address-undo/${token}`);
    expect(view.json<AddressUndoView>()).toMatchObject({
      channel: 'email',
      state: 'open',
      undoUntil: t.clock.now() + 7 * DAY,
    });
    t.clock.advance(6 * DAY);
    const undone = await t.call('POST', '/api/v1/security/address-undo', { body: { token } });
    expect(undone.json<AddressUndoView>().state).toBe('undone');
    expectError(await as(ada).get('/me'), 'TOKEN_EXPIRED');
    // The old address signs in again, by a code sent to it.
    await t.call('POST', '/api/v1/auth/codes', {
      body: { purpose: 'login', channel: 'email', destination: oldEmail },
    });
    const back = await t.call('POST', '/api/v1/auth/login/code', {
      body: { channel: 'email', destination: oldEmail, code: t.codeFor(oldEmail, 'login') },
    });
    const again = back.json<AuthResult>();
    expect(again.user.email).toBe(oldEmail);

    expectError(
      await t.call('POST', '/api/v1/security/address-undo', { body: { token } }),
      'ADDRESS_UNDO_INVALID',
    );
    const activity = (await as(again).get('/security/activity')).json<SecurityActivityResult>();
    expect(activity.items.map((item) => item.action)).toEqual(
      expect.arrayContaining(['addressReplaced', 'addressRestored']),
    );
  });

  it('lets an undo link lapse after a week', async () => {
    const ada = await t.register();
    await as(ada).post('/me/phone', { ticket: await ticketFor('email', uniqueEmail()) });
    const notice = outbox().find((m) => m.kind === 'notice' && m.destination === ada.destination);
    const token = notice?.kind === 'notice' ? /token=([\w-]+)/.exec(notice.text)?.[1] : undefined;
    t.clock.advance(7 * DAY + SECOND);
    expect(
      (await t.call('GET', `/api/v1/security/address-undo/${token}`)).json<AddressUndoView>().state,
    ).toBe('expired');
    expectError(
      await t.call('POST', '/api/v1/security/address-undo', { body: { token } }),
      'ADDRESS_UNDO_INVALID',
    );
  });

  it("lists what was done, from which device and where, and tells the person's other devices", async () => {
    const ada = await t.register();
    const phone = await t.call('POST', '/api/v1/auth/login', {
      body: { account: ada.destination, password: PASSWORD },
      headers: { 'user-agent': PHONE },
      ip: '81.2.69.160',
    });
    const onPhone = phone.json<AuthResult>();
    const socket = await TestSocket.connect(url, ada.token);
    sockets.push(socket);
    const told = socket.next(
      (frame: ServerFrame) => frame.t === 'event' && frame.event.data.type === 'security',
    );
    // Entries of one millisecond come in no set order: this one a moment after the sign-in.
    t.clock.advance(SECOND);
    const added = await t.call('POST', '/api/v1/me/phone', {
      token: onPhone.token,
      body: { ticket: await ticketFor('phone', uniquePhone()) },
      headers: { 'user-agent': PHONE },
      ip: '81.2.69.160',
    });
    expect(added.statusCode, added.body).toBe(200);
    const frame = await told;
    const phoneSession = await t.ctx.services.sessions.authenticate(onPhone.token);
    expect(frame).toMatchObject({
      t: 'event',
      event: {
        data: {
          type: 'security',
          activity: {
            action: 'addressAdded',
            sessionId: phoneSession.sessionId,
            userAgent: PHONE,
            ip: '81.2.69.160',
            country: 'GB',
            channel: 'phone',
          },
        },
      },
    });
    const list = (await as(ada).get('/security/activity?limit=2')).json<SecurityActivityResult>();
    expect(list.items.map((item) => item.action)).toEqual(['addressAdded', 'signIn']);
    expect(list.next).not.toBeNull();
    const older = await as(ada).get(`/security/activity?limit=2&cursor=${list.next}`);
    expect(older.json<SecurityActivityResult>().items.map((item) => item.action)).toEqual([
      'signIn',
    ]);
  });
});
