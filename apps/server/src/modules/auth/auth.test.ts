import {
  type AuthResult,
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_SECONDS,
  CODE_SENDS_PER_DESTINATION_PER_DAY,
  CODE_TTL_SECONDS,
  ERRORS,
  type Me,
  REGISTRATION_TICKET_TTL_SECONDS,
  type SendCodeResult,
  SESSION_TTL_DAYS,
  type VerifyCodeResult,
} from '@teltlk/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY, SECOND } from '../../lib/clock.js';
import {
  dialects,
  expectError,
  PASSWORD,
  type TestApp,
  uniqueEmail,
  uniquePhone,
} from '../../test/harness.js';
import { authApp } from './auth-app.js';

describe.each(dialects)('auth on $dialect', ({ dialect }) => {
  const app = authApp(dialect);
  let t: TestApp;
  beforeEach(() => {
    t = app.t;
  });
  const { sendCode, verify, register, me, ticketFor, profile } = app;

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
