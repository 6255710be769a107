import {
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_SECONDS,
  CODE_SENDS_PER_DESTINATION_PER_DAY,
  CODE_TTL_SECONDS,
  ERRORS,
  LOGIN_BASE_DELAY_SECONDS,
  LOGIN_FREE_FAILURES,
  REGISTRATION_TICKET_TTL_SECONDS,
  SESSION_TTL_DAYS,
  type AuthResult,
  type Me,
  type SendCodeResult,
  type SessionListResult,
  type VerifyCodeResult,
} from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, SECOND } from '../../lib/clock.js';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  uniqueEmail,
  uniquePhone,
  type TestApp,
} from '../../test/harness.js';

const NEW_PASSWORD = 'N3wPassword';

describe.each(dialects)('auth on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ dialect });
  });
  afterEach(async () => {
    await t.close();
  });

  const sendCode = (body: object, ip?: string) =>
    t.call('POST', '/api/v1/auth/codes', { body, ip });
  const verify = (body: object) => t.call('POST', '/api/v1/auth/codes/verify', { body });
  const register = (body: object) => t.call('POST', '/api/v1/auth/register', { body });
  const login = (account: string, password: string) =>
    t.call('POST', '/api/v1/auth/login', { body: { account, password } });
  const me = (token: string) => t.call('GET', '/api/v1/me', { token });

  /** Sends a register code and trades it for a ticket. */
  async function ticketFor(destination: string, channel = 'email'): Promise<string> {
    expect((await sendCode({ purpose: 'register', channel, destination })).statusCode).toBe(200);
    const code = t.codeFor(destination, 'register');
    const verified = await verify({ purpose: 'register', channel, destination, code });
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json<VerifyCodeResult>().ticket;
  }

  const profile = { nickname: 'Ada', password: PASSWORD, country: 'GB', motherTongue: 'en' };

  /** Asks for a sign-in or reset code (after the resend interval of the registration code) and reads it. */
  async function freshCode(
    purpose: 'login' | 'reset',
    destination: string,
    channel = 'email',
  ): Promise<string> {
    t.clock.advance(CODE_RESEND_SECONDS * SECOND);
    const sent = await sendCode({ purpose, channel, destination });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<SendCodeResult>().expiresIn).toBe(CODE_TTL_SECONDS[purpose]);
    return t.codeFor(destination, purpose);
  }

  describe('registration', () => {
    it('registers by email: code, verify, register, then /me', async () => {
      const email = uniqueEmail();
      const sent = await sendCode({
        purpose: 'register',
        channel: 'email',
        destination: email.toUpperCase(),
      });
      expect(sent.json<SendCodeResult>()).toEqual({
        resendAfter: CODE_RESEND_SECONDS,
        expiresIn: CODE_TTL_SECONDS.register,
      });
      // Addresses are case-insensitive: the code went to the lower-case form.
      const code = t.codeFor(email, 'register');
      const { ticket } = (
        await verify({ purpose: 'register', channel: 'email', destination: email, code })
      ).json<VerifyCodeResult>();

      const registered = await register({ ticket, ...profile });
      expect(registered.statusCode, registered.body).toBe(200);
      const result = registered.json<AuthResult>();
      expect(result.expiresAt).toBe(t.clock.now() + SESSION_TTL_DAYS * DAY);
      expect(result.user).toMatchObject({
        nickname: 'Ada',
        email,
        phone: null,
        country: 'GB',
        motherTongue: 'en',
        avatarUrl: null,
        teltlkIdChangeableAt: null,
        createdAt: t.clock.now(),
      });
      expect(result.user.teltlkId).toMatch(/^t\d{9}$/);
      expect(result.user.inviteCode).toMatch(/^[A-Z][A-Z0-9]{7}$/);
      expect(result.settings).toEqual({
        uiLanguage: 'zh_CN',
        motherTongueFirst: true,
        notifications: true,
        vibration: true,
        alertSound: true,
        notificationPreviews: false,
      });

      const fetched = await me(result.token);
      expect(fetched.statusCode).toBe(200);
      expect(fetched.json<Me>()).toEqual(result.user);

      const row = await t.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', result.user.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
    });

    it('registers by phone, with the interface language from the body', async () => {
      const phone = uniquePhone();
      const user = await t.register({ channel: 'phone', destination: phone, uiLanguage: 'en_US' });
      expect(user.user.phone).toBe(phone);
      expect(user.user.email).toBeNull();
      expect(user.settings.uiLanguage).toBe('en_US');
      expect((await me(user.token)).statusCode).toBe(200);
    });

    it('refuses a code for a destination that already has an account', async () => {
      const user = await t.register();
      const response = await sendCode({
        purpose: 'register',
        channel: 'email',
        destination: user.destination,
      });
      expect(expectError(response, 'ACCOUNT_REGISTERED').message).toBe(
        'This account has been registered',
      );
    });

    it('refuses to register a destination that got an account after its ticket was issued', async () => {
      const email = uniqueEmail();
      const first = await ticketFor(email);
      t.clock.advance(CODE_RESEND_SECONDS * SECOND);
      const second = await ticketFor(email);
      expect((await register({ ticket: first, ...profile })).statusCode).toBe(200);
      expectError(await register({ ticket: second, ...profile }), 'ACCOUNT_REGISTERED');
    });

    it('rejects phone numbers that do not exist and unknown countries', async () => {
      const phone = await sendCode({
        purpose: 'register',
        channel: 'phone',
        destination: '+8612345678',
      });
      expect(expectError(phone, 'VALIDATION_FAILED').issues).toEqual([
        { path: 'destination', rule: 'phone' },
      ]);

      const ticket = await ticketFor(uniqueEmail());
      const country = await register({ ticket, ...profile, country: 'XX' });
      expect(expectError(country, 'VALIDATION_FAILED').issues).toEqual([
        { path: 'country', rule: 'country' },
      ]);
    });

    it('counts wrong codes and burns the code after the last allowed attempt', async () => {
      const email = uniqueEmail();
      await sendCode({ purpose: 'register', channel: 'email', destination: email });
      const code = t.codeFor(email, 'register');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < CODE_MAX_ATTEMPTS; i += 1) {
        const response = await verify({
          purpose: 'register',
          channel: 'email',
          destination: email,
          code: wrong,
        });
        expect(expectError(response, 'CODE_INVALID').message).toBe('Verification code error');
      }
      expectError(
        await verify({ purpose: 'register', channel: 'email', destination: email, code }),
        'CODE_INVALID',
      );
    });

    it('accepts the right code after fewer wrong ones than the limit', async () => {
      const email = uniqueEmail();
      await sendCode({ purpose: 'register', channel: 'email', destination: email });
      const code = t.codeFor(email, 'register');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < CODE_MAX_ATTEMPTS - 1; i += 1) {
        await verify({ purpose: 'register', channel: 'email', destination: email, code: wrong });
      }
      expect(
        (await verify({ purpose: 'register', channel: 'email', destination: email, code }))
          .statusCode,
      ).toBe(200);
    });

    it('says when a code has expired', async () => {
      const email = uniqueEmail();
      await sendCode({ purpose: 'register', channel: 'email', destination: email });
      const code = t.codeFor(email, 'register');
      t.clock.advance(CODE_TTL_SECONDS.register * SECOND);
      expectError(
        await verify({ purpose: 'register', channel: 'email', destination: email, code }),
        'CODE_EXPIRED',
      );
    });

    it('lets only the newest code work', async () => {
      const email = uniqueEmail();
      await sendCode({ purpose: 'register', channel: 'email', destination: email });
      const old = t.codeFor(email, 'register');
      t.clock.advance(CODE_RESEND_SECONDS * SECOND);
      await sendCode({ purpose: 'register', channel: 'email', destination: email });
      const fresh = t.codeFor(email, 'register');
      if (old !== fresh) {
        expectError(
          await verify({ purpose: 'register', channel: 'email', destination: email, code: old }),
          'CODE_INVALID',
        );
      }
      expect(
        (await verify({ purpose: 'register', channel: 'email', destination: email, code: fresh }))
          .statusCode,
      ).toBe(200);
    });

    it('uses a code only once', async () => {
      const email = uniqueEmail();
      await ticketFor(email);
      const code = t.codeFor(email, 'register');
      expectError(
        await verify({ purpose: 'register', channel: 'email', destination: email, code }),
        'CODE_INVALID',
      );
    });

    it('uses a ticket only once, and refuses unknown or expired tickets', async () => {
      const ticket = await ticketFor(uniqueEmail());
      expect((await register({ ticket, ...profile })).statusCode).toBe(200);
      expectError(await register({ ticket, ...profile }), 'TICKET_INVALID');
      expectError(await register({ ticket: 'x'.repeat(43), ...profile }), 'TICKET_INVALID');

      const late = await ticketFor(uniqueEmail());
      t.clock.advance(REGISTRATION_TICKET_TTL_SECONDS * SECOND);
      expectError(await register({ ticket: late, ...profile }), 'TICKET_INVALID');
    });

    it('links the inviter by invitation code, in any case', async () => {
      const inviter = await t.register();
      const invited = await t.register({ inviteCode: inviter.user.inviteCode.toLowerCase() });
      const row = await t.ctx.db
        .selectFrom('users')
        .select('invited_by')
        .where('id', '=', invited.user.id)
        .executeTakeFirstOrThrow();
      expect(row.invited_by).toBe(inviter.user.id);
    });

    it('refuses an unknown invitation code and keeps the ticket usable', async () => {
      const ticket = await ticketFor(uniqueEmail());
      const response = await register({ ticket, ...profile, inviteCode: 'NOSUCH12' });
      expect(expectError(response, 'INVITE_CODE_INVALID').message).toBe('Invalid invitation code');
      expect((await register({ ticket, ...profile })).statusCode).toBe(200);
    });

    it('leaves no account behind when registration fails part-way', async () => {
      const ticket = await ticketFor(uniqueEmail());
      await register({ ticket, ...profile, inviteCode: 'NOSUCH12' });
      const count = await t.ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    });
  });

  describe('passphrases', () => {
    // 73 characters in three scripts, spaces and an emoji; é typed as one code point.
    const passphrase = 'Grüne Äpfel und 7 Birnen, 苹果和梨, café au lait à 8 heures du matin 🍐🍏';

    it('registers and signs in with a long Unicode passphrase, however é is typed', async () => {
      expect([...passphrase].length).toBeGreaterThan(64);
      const user = await t.register({ password: passphrase });
      expect((await login(user.destination, passphrase)).statusCode).toBe(200);
      // The same text from a keyboard that sends e + combining accent, and full-width digits.
      const decomposed = passphrase.normalize('NFD').replace('7', '７');
      expect(decomposed).not.toBe(passphrase);
      expect((await login(user.destination, decomposed)).statusCode).toBe(200);
      expectError(
        await login(user.destination, passphrase.replace('8', '9')),
        'PASSWORD_INCORRECT',
      );
    });

    it('sets a passphrase by reset and by change', async () => {
      const user = await t.register();
      const code = await freshCode('reset', user.destination);
      const reset = await t.call('POST', '/api/v1/auth/password/reset', {
        body: { channel: 'email', destination: user.destination, code, password: passphrase },
      });
      expect(reset.statusCode, reset.body).toBe(204);
      const signedIn = (await login(user.destination, passphrase)).json<AuthResult>();
      const longer = `${passphrase} Ünd mehr`;
      const changed = await t.call('PUT', '/api/v1/me/password', {
        token: signedIn.token,
        body: { currentPassword: passphrase, newPassword: longer },
      });
      expect(changed.statusCode, changed.body).toBe(204);
      expect((await login(user.destination, longer)).statusCode).toBe(200);
    });
  });

  describe('password sign-in', () => {
    it('signs in by email, phone or Teltlk ID, in any case', async () => {
      const byEmail = await t.register();
      const byPhone = await t.register({ channel: 'phone', destination: uniquePhone() });
      for (const account of [
        byEmail.destination,
        byEmail.destination.toUpperCase(),
        ` ${byEmail.destination} `,
        byEmail.user.teltlkId,
        byEmail.user.teltlkId.toUpperCase(),
      ]) {
        const response = await login(account, PASSWORD);
        expect(response.statusCode, account).toBe(200);
        expect(response.json<AuthResult>().user.id).toBe(byEmail.user.id);
      }
      const phone = await login(byPhone.destination, PASSWORD);
      expect(phone.json<AuthResult>().user.id).toBe(byPhone.user.id);
      expect((await me(phone.json<AuthResult>().token)).statusCode).toBe(200);
    });

    it('tells an unknown account from a wrong password', async () => {
      const user = await t.register();
      const unknown = expectError(await login('nobody@example.com', PASSWORD), 'ACCOUNT_NOT_FOUND');
      expect(unknown.message).toBe('The account you entered is incorrect, Please re-enter it');
      expectError(await login('tnobody0000', PASSWORD), 'ACCOUNT_NOT_FOUND');
      expectError(await login('+8613800000000', PASSWORD), 'ACCOUNT_NOT_FOUND');
      const wrong = expectError(await login(user.destination, 'Wrong1234'), 'PASSWORD_INCORRECT');
      expect(wrong.message).toBe('The password you entered is incorrect, Please re-enter it');
    });

    it('locks the account after repeated failures, for longer each time, and unlocks on success', async () => {
      const user = await t.register();
      for (let i = 0; i < LOGIN_FREE_FAILURES; i += 1) {
        expectError(await login(user.destination, 'Wrong1234'), 'PASSWORD_INCORRECT');
      }
      // Locked: even the right password is refused until the delay has passed.
      const locked = expectError(await login(user.destination, PASSWORD), 'LOGIN_LOCKED');
      expect(locked.params).toEqual({ seconds: LOGIN_BASE_DELAY_SECONDS });
      expect(locked.message).toBe(
        `Too many wrong passwords, please try again in ${LOGIN_BASE_DELAY_SECONDS} seconds`,
      );
      t.clock.advance(10 * SECOND);
      expect(expectError(await login(user.destination, PASSWORD), 'LOGIN_LOCKED').params).toEqual({
        seconds: LOGIN_BASE_DELAY_SECONDS - 10,
      });

      t.clock.advance((LOGIN_BASE_DELAY_SECONDS - 10) * SECOND);
      expectError(await login(user.destination, 'Wrong1234'), 'PASSWORD_INCORRECT');
      expect(expectError(await login(user.destination, PASSWORD), 'LOGIN_LOCKED').params).toEqual({
        seconds: LOGIN_BASE_DELAY_SECONDS * 2,
      });

      t.clock.advance(LOGIN_BASE_DELAY_SECONDS * 2 * SECOND);
      expect((await login(user.destination, PASSWORD)).statusCode).toBe(200);
      // The success reset the count: the free failures are free again.
      for (let i = 0; i < LOGIN_FREE_FAILURES; i += 1) {
        expectError(await login(user.destination, 'Wrong1234'), 'PASSWORD_INCORRECT');
      }
      expectError(await login(user.destination, PASSWORD), 'LOGIN_LOCKED');
    });
  });

  describe('code sign-in', () => {
    it('signs in with a login code', async () => {
      const user = await t.register({ channel: 'phone', destination: uniquePhone() });
      const code = await freshCode('login', user.destination, 'phone');
      const response = await t.call('POST', '/api/v1/auth/login/code', {
        body: { channel: 'phone', destination: user.destination, code },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<AuthResult>().user.id).toBe(user.user.id);
      expect((await me(response.json<AuthResult>().token)).statusCode).toBe(200);
    });

    it('refuses wrong codes and expired codes', async () => {
      const user = await t.register();
      const code = await freshCode('login', user.destination);
      const attempt = (c: string) =>
        t.call('POST', '/api/v1/auth/login/code', {
          body: { channel: 'email', destination: user.destination, code: c },
        });
      expectError(await attempt(code === '000000' ? '111111' : '000000'), 'CODE_INVALID');
      t.clock.advance(CODE_TTL_SECONDS.login * SECOND);
      expectError(await attempt(code), 'CODE_EXPIRED');
    });
  });

  describe('password reset', () => {
    it('sets a new password and signs every session out', async () => {
      const user = await t.register();
      const other = (await login(user.destination, PASSWORD)).json<AuthResult>().token;
      const code = await freshCode('reset', user.destination);
      const reset = await t.call('POST', '/api/v1/auth/password/reset', {
        body: { channel: 'email', destination: user.destination, code, password: NEW_PASSWORD },
      });
      expect(reset.statusCode, reset.body).toBe(204);
      expect(reset.body).toBe('');
      expectError(await me(user.token), 'TOKEN_EXPIRED');
      expectError(await me(other), 'TOKEN_EXPIRED');
      expectError(await login(user.destination, PASSWORD), 'PASSWORD_INCORRECT');
      expect((await login(user.destination, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('needs a valid reset code and a strong password', async () => {
      const user = await t.register();
      const code = await freshCode('reset', user.destination);
      const weak = await t.call('POST', '/api/v1/auth/password/reset', {
        body: { channel: 'email', destination: user.destination, code, password: 'alllowercase1' },
      });
      expect(expectError(weak, 'VALIDATION_FAILED').issues).toEqual([
        { path: 'password', rule: 'passwordStrength' },
      ]);
      const wrong = await t.call('POST', '/api/v1/auth/password/reset', {
        body: {
          channel: 'email',
          destination: user.destination,
          code: code === '000000' ? '111111' : '000000',
          password: NEW_PASSWORD,
        },
      });
      expectError(wrong, 'CODE_INVALID');
      expect((await login(user.destination, PASSWORD)).statusCode).toBe(200);
    });

    it('lifts a login lock', async () => {
      const user = await t.register();
      for (let i = 0; i <= LOGIN_FREE_FAILURES; i += 1) await login(user.destination, 'Wrong1234');
      expectError(await login(user.destination, PASSWORD), 'LOGIN_LOCKED');
      const code = await freshCode('reset', user.destination);
      await t.call('POST', '/api/v1/auth/password/reset', {
        body: { channel: 'email', destination: user.destination, code, password: NEW_PASSWORD },
      });
      expect((await login(user.destination, NEW_PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('sessions', () => {
    it('signs out the current session only', async () => {
      const user = await t.register();
      const other = (await login(user.destination, PASSWORD)).json<AuthResult>().token;
      const out = await t.call('POST', '/api/v1/auth/logout', { token: user.token });
      expect(out.statusCode).toBe(204);
      expectError(await me(user.token), 'TOKEN_EXPIRED');
      expectError(
        await t.call('POST', '/api/v1/auth/logout', { token: user.token }),
        'TOKEN_EXPIRED',
      );
      expect((await me(other)).statusCode).toBe(200);
    });

    it('lists live sessions, marks the current one and revokes another', async () => {
      const user = await t.register();
      t.clock.advance(5 * SECOND);
      const second = await t.call('POST', '/api/v1/auth/login', {
        body: { account: user.destination, password: PASSWORD },
        headers: { 'user-agent': 'Phone/1.0' },
        ip: '203.0.113.7',
      });
      const secondToken = second.json<AuthResult>().token;

      const listed = (
        await t.call('GET', '/api/v1/sessions', { token: user.token })
      ).json<SessionListResult>();
      expect(listed.sessions).toHaveLength(2);
      const current = listed.sessions.find((s) => s.current);
      const phone = listed.sessions.find((s) => !s.current);
      expect(current).toBeDefined();
      expect(phone).toMatchObject({
        userAgent: 'Phone/1.0',
        ip: '203.0.113.7',
        createdAt: t.clock.now(),
      });

      const revoked = await t.call('DELETE', `/api/v1/sessions/${phone?.id}`, {
        token: user.token,
      });
      expect(revoked.statusCode).toBe(204);
      expectError(await me(secondToken), 'TOKEN_EXPIRED');
      const after = (
        await t.call('GET', '/api/v1/sessions', { token: user.token })
      ).json<SessionListResult>();
      expect(after.sessions.map((s) => s.id)).toEqual([current?.id]);
      expectError(
        await t.call('DELETE', `/api/v1/sessions/${phone?.id}`, { token: user.token }),
        'NOT_FOUND',
      );
    });

    it("cannot see or revoke another user's session", async () => {
      const alice = await t.register();
      const bob = await t.register();
      const bobSessions = (
        await t.call('GET', '/api/v1/sessions', { token: bob.token })
      ).json<SessionListResult>();
      const bobSession = bobSessions.sessions[0]?.id ?? '';
      const aliceSessions = (
        await t.call('GET', '/api/v1/sessions', { token: alice.token })
      ).json<SessionListResult>();
      expect(aliceSessions.sessions.map((s) => s.id)).not.toContain(bobSession);
      expectError(
        await t.call('DELETE', `/api/v1/sessions/${bobSession}`, { token: alice.token }),
        'NOT_FOUND',
      );
      expect((await me(bob.token)).statusCode).toBe(200);
    });

    it('expires sessions after their lifetime', async () => {
      const user = await t.register();
      t.clock.advance(SESSION_TTL_DAYS * DAY - SECOND);
      expect((await me(user.token)).statusCode).toBe(200);
      t.clock.advance(SECOND);
      expectError(await me(user.token), 'TOKEN_EXPIRED');
      expectError(await me('A'.repeat(43)), 'UNAUTHENTICATED');
    });

    it('records activity at most once a minute', async () => {
      const user = await t.register();
      const createdAt = t.clock.now();
      const lastSeen = async () =>
        (await t.call('GET', '/api/v1/sessions', { token: user.token })).json<SessionListResult>()
          .sessions[0]?.lastSeenAt;
      t.clock.advance(30 * SECOND);
      expect(await lastSeen()).toBe(createdAt);
      t.clock.advance(30 * SECOND);
      await me(user.token);
      expect(await lastSeen()).toBe(t.clock.now());
    });
  });

  describe('code limits', () => {
    it('sends at most one code per destination per interval', async () => {
      const destination = uniqueEmail();
      const body = { purpose: 'register', channel: 'email', destination };
      expect((await sendCode(body)).statusCode).toBe(200);
      expect(expectError(await sendCode(body), 'CODE_TOO_FREQUENT').params).toEqual({
        seconds: CODE_RESEND_SECONDS,
      });
      t.clock.advance(20 * SECOND);
      expect(expectError(await sendCode(body), 'CODE_TOO_FREQUENT').params).toEqual({
        seconds: CODE_RESEND_SECONDS - 20,
      });
      t.clock.advance((CODE_RESEND_SECONDS - 20) * SECOND);
      expect((await sendCode(body)).statusCode).toBe(200);
    });

    it('keeps the interval per purpose, so a fresh account can reset its password at once', async () => {
      const user = await t.register();
      const reset = { purpose: 'reset', channel: user.channel, destination: user.destination };
      expect((await sendCode(reset)).statusCode).toBe(200);
      expectError(await sendCode(reset), 'CODE_TOO_FREQUENT');
      const login = { ...reset, purpose: 'login' };
      expect((await sendCode(login)).statusCode).toBe(200);
    });

    it('caps the codes per destination per day', async () => {
      const body = { purpose: 'register', channel: 'email', destination: uniqueEmail() };
      for (let i = 0; i < CODE_SENDS_PER_DESTINATION_PER_DAY; i += 1) {
        expect((await sendCode(body)).statusCode).toBe(200);
        t.clock.advance(CODE_RESEND_SECONDS * SECOND);
      }
      const limited = expectError(await sendCode(body), 'CODE_DAILY_LIMIT');
      expect(limited.message).toBe(ERRORS.CODE_DAILY_LIMIT.message);
      t.clock.advance(DAY);
      expect((await sendCode(body)).statusCode).toBe(200);
    });

    it('keeps the limits in the database, shared by every node', async () => {
      const destination = uniqueEmail();
      await sendCode({ purpose: 'register', channel: 'email', destination });
      const rows = await t.ctx.db
        .selectFrom('verification_codes')
        .selectAll()
        .where('destination', '=', destination)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.code_hash).not.toContain(t.codeFor(destination, 'register'));
    });
  });
});
