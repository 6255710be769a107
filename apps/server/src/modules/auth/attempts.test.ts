import {
  CODE_MAX_ATTEMPTS,
  CODE_RESEND_SECONDS,
  LOGIN_BASE_DELAY_SECONDS,
  LOGIN_FREE_FAILURES,
  type AuthResult,
  type CodePurpose,
  type ErrorBody,
} from '@teltlk/protocol';
import argon2 from 'argon2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SECOND } from '../../lib/clock.js';
import type * as random from '../../lib/random.js';
import { sameDigest } from '../../lib/random.js';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  uniqueEmail,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { UserRepo } from '../users/repo.js';
import { WalletService } from '../wallet/service.js';
import { CodeRepo } from './repo.js';

// Every comparison of a code goes through sameDigest: counting its calls counts comparisons.
vi.mock('../../lib/random.js', async (importOriginal) => {
  const actual = await importOriginal<typeof random>();
  return { ...actual, sameDigest: vi.fn(actual.sameDigest) };
});

/** Guesses sent at once, well over every limit. */
const PARALLEL = 20;
const WRONG_PASSWORD = 'Wrong1234';

/**
 * Holds each call of a repository read until `count` calls have read, then lets them all
 * go on: every guess acts on the same state, the interleaving that lets a check-then-count
 * let every guess through. Calls after the count pass straight on.
 */
function holdReads(prototype: object, method: string, count: number): void {
  const original = (prototype as Record<string, (...args: unknown[]) => Promise<unknown>>)[
    method
  ] as (...args: unknown[]) => Promise<unknown>;
  let arrived = 0;
  let open = () => undefined as void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  vi.spyOn(
    prototype as Record<string, (...args: unknown[]) => Promise<unknown>>,
    method,
  ).mockImplementation(async function (this: unknown, ...args: unknown[]) {
    const result = await original.apply(this, args);
    arrived += 1;
    if (arrived >= count) open();
    await gate;
    return result;
  });
}

const codeOf = (response: { json<T>(): T }) => response.json<ErrorBody>().error.code;
const tally = (codes: string[]) =>
  codes.reduce<Record<string, number>>((counts, code) => {
    counts[code] = (counts[code] ?? 0) + 1;
    return counts;
  }, {});

describe.each(dialects)('attempt limits under concurrency on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ dialect });
    vi.mocked(sameDigest).mockClear();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.close();
  });

  const attemptsOf = async (destination: string, purpose: CodePurpose) =>
    (
      await t.ctx.db
        .selectFrom('verification_codes')
        .select('attempts')
        .where('destination', '=', destination)
        .where('purpose', '=', purpose)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).attempts;

  /** Where each purpose's code is tried, with the wrong or right code. */
  const tryCode = (purpose: CodePurpose, destination: string, code: string) => {
    const target = { channel: 'email', destination, code };
    switch (purpose) {
      case 'register':
        return t.call('POST', '/api/v1/auth/codes/verify', { body: { purpose, ...target } });
      case 'login':
        return t.call('POST', '/api/v1/auth/login/code', { body: target });
      case 'reset':
        return t.call('POST', '/api/v1/auth/password/reset', {
          body: { ...target, password: 'N3wPassword' },
        });
    }
  };

  it.each(['register', 'login', 'reset'] as const)(
    'counts %s code guesses sent at once, compares at most the limit, then refuses the right code',
    async (purpose) => {
      let destination = uniqueEmail();
      if (purpose !== 'register') {
        destination = (await t.register()).destination;
        t.clock.advance(CODE_RESEND_SECONDS * SECOND);
      }
      const sent = await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose, channel: 'email', destination },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const code = t.codeFor(destination, purpose);
      const wrong = code === '000000' ? '111111' : '000000';
      vi.mocked(sameDigest).mockClear();
      holdReads(CodeRepo.prototype, 'findOpen', PARALLEL);

      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, () => tryCode(purpose, destination, wrong)),
      );
      expect(tally(responses.map(codeOf))).toEqual({ CODE_INVALID: PARALLEL });
      expect(await attemptsOf(destination, purpose)).toBe(CODE_MAX_ATTEMPTS);
      expect(vi.mocked(sameDigest).mock.calls.length).toBeLessThanOrEqual(CODE_MAX_ATTEMPTS);

      expectError(await tryCode(purpose, destination, code), 'CODE_INVALID');
      expect(vi.mocked(sameDigest).mock.calls.length).toBeLessThanOrEqual(CODE_MAX_ATTEMPTS);
    },
  );

  describe('passwords', () => {
    let user: RegisteredUser;
    beforeEach(async () => {
      user = await t.register();
    });

    const failures = async () =>
      (
        await t.ctx.db
          .selectFrom('users')
          .select(['failed_logins', 'login_locked_until'])
          .where('id', '=', user.user.id)
          .executeTakeFirstOrThrow()
      ).failed_logins;

    it('counts wrong passwords sent at once, verifies at most the free failures, then stays locked', async () => {
      const verify = vi.spyOn(argon2, 'verify');
      holdReads(UserRepo.prototype, 'findByDestination', PARALLEL);
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, () =>
          t.call('POST', '/api/v1/auth/login', {
            body: { account: user.destination, password: WRONG_PASSWORD },
          }),
        ),
      );
      expect(tally(responses.map(codeOf))).toEqual({
        PASSWORD_INCORRECT: LOGIN_FREE_FAILURES,
        LOGIN_LOCKED: PARALLEL - LOGIN_FREE_FAILURES,
      });
      expect(verify).toHaveBeenCalledTimes(LOGIN_FREE_FAILURES);
      expect(await failures()).toBe(LOGIN_FREE_FAILURES);

      const right = expectError(
        await t.call('POST', '/api/v1/auth/login', {
          body: { account: user.destination, password: PASSWORD },
        }),
        'LOGIN_LOCKED',
      );
      expect(right.params).toEqual({ seconds: LOGIN_BASE_DELAY_SECONDS });
      expect(verify).toHaveBeenCalledTimes(LOGIN_FREE_FAILURES);
    });

    it('counts wrong current passwords of a password change the same way', async () => {
      const verify = vi.spyOn(argon2, 'verify');
      holdReads(UserRepo.prototype, 'findById', PARALLEL);
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, () =>
          t.call('PUT', '/api/v1/me/password', {
            token: user.token,
            body: { currentPassword: WRONG_PASSWORD, newPassword: 'N3wPassword' },
          }),
        ),
      );
      expect(tally(responses.map(codeOf))).toEqual({
        PASSWORD_INCORRECT: LOGIN_FREE_FAILURES,
        LOGIN_LOCKED: PARALLEL - LOGIN_FREE_FAILURES,
      });
      expect(verify).toHaveBeenCalledTimes(LOGIN_FREE_FAILURES);
      expect(await failures()).toBe(LOGIN_FREE_FAILURES);
    });

    it('clears the count on a right password, one attempt at a time', async () => {
      const login = (password: string) =>
        t.call('POST', '/api/v1/auth/login', { body: { account: user.destination, password } });
      for (let i = 0; i < LOGIN_FREE_FAILURES - 1; i += 1) {
        expectError(await login(WRONG_PASSWORD), 'PASSWORD_INCORRECT');
      }
      // The right password's own attempt would have locked the account had it been wrong.
      expect((await login(PASSWORD)).json<AuthResult>().user.id).toBe(user.user.id);
      expect(await failures()).toBe(0);
      expectError(await login(WRONG_PASSWORD), 'PASSWORD_INCORRECT');
    });
  });

  describe('every other secret a person types', () => {
    /** The payment password's guesses fired at once: the thirty. */
    const PAYMENT_GUESSES = 30;

    it('counts payment password guesses sent at once before comparing, and locks after the free ones', async () => {
      const user = await t.register();
      const call = (method: 'POST' | 'PUT', path: string, body?: unknown) =>
        t.call(method, `/api/v1${path}`, { token: user.token, body });
      expect((await call('POST', '/wallet')).statusCode).toBe(200);
      expect((await call('PUT', '/wallet/password', { password: '123456' })).statusCode).toBe(200);
      const verify = vi.spyOn(argon2, 'verify');
      holdReads(WalletService.prototype, 'existing', PAYMENT_GUESSES);
      const responses = await Promise.all(
        Array.from({ length: PAYMENT_GUESSES }, () =>
          call('POST', '/wallet/password/verify', { password: '000000' }),
        ),
      );
      expect(tally(responses.map(codeOf))).toEqual({
        PAYMENT_PASSWORD_INCORRECT: LOGIN_FREE_FAILURES,
        PAYMENT_PASSWORD_LOCKED: PAYMENT_GUESSES - LOGIN_FREE_FAILURES,
      });
      expect(verify).toHaveBeenCalledTimes(LOGIN_FREE_FAILURES);
      const row = await t.ctx.db
        .selectFrom('wallets')
        .select('failed_attempts')
        .where('user_id', '=', user.user.id)
        .executeTakeFirstOrThrow();
      expect(row.failed_attempts).toBe(LOGIN_FREE_FAILURES);
      // The right one is refused too while the lock lasts, and never compared.
      expectError(
        await call('POST', '/wallet/password/verify', { password: '123456' }),
        'PAYMENT_PASSWORD_LOCKED',
      );
      expect(verify).toHaveBeenCalledTimes(LOGIN_FREE_FAILURES);
    });

    it('counts step-up passwords with the sign-in lock, and step-up codes with their code', async () => {
      const user = await t.register();
      const verify = vi.spyOn(argon2, 'verify');
      holdReads(UserRepo.prototype, 'findById', PARALLEL);
      const guesses = await Promise.all(
        Array.from({ length: PARALLEL }, () =>
          t.call('POST', '/api/v1/security/step-up', {
            token: user.token,
            body: { method: 'password', password: WRONG_PASSWORD },
          }),
        ),
      );
      expect(tally(guesses.map(codeOf))).toEqual({
        PASSWORD_INCORRECT: LOGIN_FREE_FAILURES,
        LOGIN_LOCKED: PARALLEL - LOGIN_FREE_FAILURES,
      });
      expect(verify).toHaveBeenCalledTimes(LOGIN_FREE_FAILURES);
      vi.restoreAllMocks();

      const sent = await t.call('POST', '/api/v1/security/step-up/code', {
        token: user.token,
        body: { channel: 'email' },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const code = t.codeFor(user.destination, 'stepUp');
      vi.mocked(sameDigest).mockClear();
      holdReads(CodeRepo.prototype, 'findOpen', PARALLEL);
      const codes = await Promise.all(
        Array.from({ length: PARALLEL }, () =>
          t.call('POST', '/api/v1/security/step-up', {
            token: user.token,
            body: {
              method: 'code',
              channel: 'email',
              code: code === '000000' ? '111111' : '000000',
            },
          }),
        ),
      );
      expect(tally(codes.map(codeOf))).toEqual({ CODE_INVALID: PARALLEL });
      expect(vi.mocked(sameDigest).mock.calls.length).toBeLessThanOrEqual(CODE_MAX_ATTEMPTS);
      expectError(
        await t.call('POST', '/api/v1/security/step-up', {
          token: user.token,
          body: { method: 'code', channel: 'email', code },
        }),
        'CODE_INVALID',
      );
    });

    it("counts a person's typed device codes sent at once, and looks up at most the free ones", async () => {
      const user = await t.register();
      const lookups = vi.spyOn(t.ctx.db, 'selectFrom');
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          t.call('POST', '/api/v1/device-logins/lookup', {
            token: user.token,
            body: { code: `ZZZZ${String(1000 + i)}` },
          }),
        ),
      );
      expect(tally(responses.map(codeOf))).toEqual({
        LOGIN_CODE_INVALID: LOGIN_FREE_FAILURES,
        LOGIN_LOCKED: PARALLEL - LOGIN_FREE_FAILURES,
      });
      const ticketReads = lookups.mock.calls.filter(([table]) => table === 'device_logins');
      expect(ticketReads).toHaveLength(LOGIN_FREE_FAILURES);
      // A right code is refused while the lock lasts; after it, found, and the count cleared.
      const ticket = await t.call('POST', '/api/v1/auth/device-logins');
      const { code } = ticket.json<{ code: string }>();
      const lookUp = () =>
        t.call('POST', '/api/v1/device-logins/lookup', { token: user.token, body: { code } });
      expectError(await lookUp(), 'LOGIN_LOCKED');
      t.clock.advance(LOGIN_BASE_DELAY_SECONDS * SECOND);
      expect((await lookUp()).statusCode).toBe(200);
      const counter = await t.ctx.db
        .selectFrom('attempt_counters')
        .select('failures')
        .where('key', '=', `deviceCode:${user.user.id}`)
        .executeTakeFirstOrThrow();
      expect(counter.failures).toBe(0);
    });
  });

  describe('cheap checks before hashing', () => {
    it('never hashes for a registration ticket that cannot work', async () => {
      const hash = vi.spyOn(argon2, 'hash');
      const profile = { nickname: 'Ada', password: PASSWORD, country: 'GB', motherTongue: 'en' };
      const unknown = await t.call('POST', '/api/v1/auth/register', {
        body: { ticket: 'x'.repeat(43), ...profile },
      });
      expectError(unknown, 'TICKET_INVALID');
      expect(hash).not.toHaveBeenCalled();
    });

    it('never hashes a new password for a wrong reset code', async () => {
      const user = await t.register();
      t.clock.advance(CODE_RESEND_SECONDS * SECOND);
      await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'reset', channel: 'email', destination: user.destination },
      });
      const code = t.codeFor(user.destination, 'reset');
      const hash = vi.spyOn(argon2, 'hash');
      expectError(
        await tryCode('reset', user.destination, code === '000000' ? '111111' : '000000'),
        'CODE_INVALID',
      );
      expect(hash).not.toHaveBeenCalled();
      expect((await tryCode('reset', user.destination, code)).statusCode).toBe(204);
      expect(hash).toHaveBeenCalledTimes(1);
    });
  });
});

// Its own app with a one-place hashing queue, apart from the suite's.
describe.each(dialects)('a busy hashing queue on $dialect', ({ dialect }) => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('refuses sign-ins beyond the hashing queue as SERVER_BUSY, without counting them', async () => {
    const busy = await createTestApp({
      dialect,
      passwordHashing: { memoryCost: 1024, timeCost: 1, concurrency: 1, queue: 0 },
    });
    try {
      const user = await busy.register();
      let started = () => undefined as void;
      const verifying = new Promise<void>((resolve) => (started = resolve));
      let finish = () => undefined as void;
      const held = new Promise<void>((resolve) => (finish = resolve));
      const original = argon2.verify.bind(argon2);
      vi.spyOn(argon2, 'verify').mockImplementation(async (...args) => {
        started();
        await held;
        return original(...args);
      });
      const login = (password: string) =>
        busy.call('POST', '/api/v1/auth/login', { body: { account: user.destination, password } });

      const first = login(WRONG_PASSWORD);
      await verifying;
      const refused = expectError(await login(PASSWORD), 'SERVER_BUSY');
      expect(refused.message).toBe('The server is busy, please try again in a moment');
      finish();
      expectError(await first, 'PASSWORD_INCORRECT');
      const row = await busy.ctx.db
        .selectFrom('users')
        .select('failed_logins')
        .where('id', '=', user.user.id)
        .executeTakeFirstOrThrow();
      expect(row.failed_logins).toBe(1);
      expect((await login(PASSWORD)).statusCode).toBe(200);
    } finally {
      await busy.close();
    }
  });
});
