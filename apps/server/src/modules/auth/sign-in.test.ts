import {
  type AuthResult,
  CODE_TTL_SECONDS,
  LOGIN_BASE_DELAY_SECONDS,
  LOGIN_FREE_FAILURES,
} from '@teltlk/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../lib/clock.js';
import { dialects, expectError, PASSWORD, type TestApp, uniquePhone } from '../../test/harness.js';
import { authApp, NEW_PASSWORD } from './auth-app.js';

describe.each(dialects)('auth on $dialect', ({ dialect }) => {
  const app = authApp(dialect);
  let t: TestApp;
  beforeEach(() => {
    t = app.t;
  });
  const { login, me, freshCode } = app;

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
});
