import type { WalletCodeResult, WalletResult } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND } from '../../lib/clock.js';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';

describe.each(dialects)('wallet and payment password on $dialect', ({ dialect }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (
    user: RegisteredUser,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body?: unknown,
  ) => t.call(method, `/api/v1${url}`, { token: user.token, body });
  const wallet = async (user: RegisteredUser) =>
    (await call(user, 'GET', '/wallet')).json<WalletResult>();
  /** A person with a wallet and the payment password 123456. */
  const withPassword = async () => {
    const user = await t.register();
    expect((await call(user, 'POST', '/wallet')).statusCode).toBe(200);
    expect((await call(user, 'PUT', '/wallet/password', { password: '123456' })).statusCode).toBe(
      200,
    );
    return user;
  };

  it('is created once, then takes a first payment password of six digits', async () => {
    const user = await t.register();
    expect(await wallet(user)).toEqual({
      exists: false,
      hasPassword: false,
      lockedUntil: null,
      balances: [{ currency: 'PI', available: 0, held: 0 }],
    });
    expectError(
      await call(user, 'PUT', '/wallet/password', { password: '123456' }),
      'WALLET_NOT_FOUND',
    );
    await call(user, 'POST', '/wallet');
    expect((await call(user, 'POST', '/wallet')).json<WalletResult>()).toMatchObject({
      exists: true,
      hasPassword: false,
    });
    for (const password of ['12345', '1234567', 'abcdef', '12 456']) {
      const refused = expectError(
        await call(user, 'PUT', '/wallet/password', { password }),
        'VALIDATION_FAILED',
      );
      expect(refused.issues?.[0]?.rule).toBe('paymentPassword');
    }
    const set = await call(user, 'PUT', '/wallet/password', { password: '204816' });
    expect(set.json<WalletResult>().hasPassword).toBe(true);
    expectError(
      await call(user, 'PUT', '/wallet/password', { password: '000000' }),
      'PAYMENT_PASSWORD_ALREADY_SET',
    );
    const row = await t.ctx.db
      .selectFrom('wallets')
      .select('password_hash')
      .where('user_id', '=', user.user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('checks and changes the payment password', async () => {
    const user = await withPassword();
    expect(
      (await call(user, 'POST', '/wallet/password/verify', { password: '123456' })).statusCode,
    ).toBe(204);
    expectError(
      await call(user, 'POST', '/wallet/password/verify', { password: '654321' }),
      'PAYMENT_PASSWORD_INCORRECT',
    );
    expectError(
      await call(user, 'POST', '/wallet/password/change', {
        currentPassword: '000000',
        password: '111111',
      }),
      'PAYMENT_PASSWORD_INCORRECT',
    );
    const changed = await call(user, 'POST', '/wallet/password/change', {
      currentPassword: '123456',
      password: '111111',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(
      (await call(user, 'POST', '/wallet/password/verify', { password: '111111' })).statusCode,
    ).toBe(204);
    expectError(
      await call(user, 'POST', '/wallet/password/verify', { password: '123456' }),
      'PAYMENT_PASSWORD_INCORRECT',
    );
  });

  it('locks after five wrong entries in a row, longer each time, and unlocks with time', async () => {
    const user = await withPassword();
    const guess = (password: string) => call(user, 'POST', '/wallet/password/verify', { password });
    for (let i = 0; i < 4; i += 1) expectError(await guess('000000'), 'PAYMENT_PASSWORD_INCORRECT');
    // A right one in between starts the count again.
    expect((await guess('123456')).statusCode).toBe(204);
    for (let i = 0; i < 5; i += 1) expectError(await guess('000000'), 'PAYMENT_PASSWORD_INCORRECT');
    const locked = expectError(await guess('123456'), 'PAYMENT_PASSWORD_LOCKED');
    expect(locked.params).toEqual({ seconds: 30 });
    expect((await wallet(user)).lockedUntil).toBe(t.clock.now() + 30 * SECOND);
    t.clock.advance(30 * SECOND);
    expectError(await guess('000000'), 'PAYMENT_PASSWORD_INCORRECT');
    expect(expectError(await guess('123456'), 'PAYMENT_PASSWORD_LOCKED').params).toEqual({
      seconds: 60,
    });
    t.clock.advance(60 * SECOND);
    expect((await guess('123456')).statusCode).toBe(204);
    expect((await wallet(user)).lockedUntil).toBeNull();
  });

  it('resets a forgotten payment password with a code to one’s own address, valid 5 minutes', async () => {
    const user = await withPassword();
    const guess = (password: string) => call(user, 'POST', '/wallet/password/verify', { password });
    // Locked by wrong guesses: the reset clears the lock too.
    for (let i = 0; i < 5; i += 1) expectError(await guess('000000'), 'PAYMENT_PASSWORD_INCORRECT');
    const sent = await call(user, 'POST', '/wallet/password/code', { channel: user.channel });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<WalletCodeResult>()).toMatchObject({ expiresIn: 300 });
    expect(sent.json<WalletCodeResult>().sentTo).toContain('***');
    expect(sent.json<WalletCodeResult>().sentTo).not.toBe(user.destination);
    const code = t.codeFor(user.destination, 'wallet');
    const reset = (body: Record<string, string>) =>
      call(user, 'POST', '/wallet/password/reset', { channel: user.channel, ...body });
    const wrong = code === '000000' ? '111111' : '000000';
    expectError(await reset({ code: wrong, password: '654321' }), 'CODE_INVALID');
    expectError(
      await call(user, 'POST', '/wallet/password/code', {
        channel: user.channel === 'email' ? 'phone' : 'email',
      }),
      'WALLET_CODE_NO_DESTINATION',
    );
    const done = await reset({ code, password: '654321' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<WalletResult>().lockedUntil).toBeNull();
    expect((await guess('654321')).statusCode).toBe(204);
    expectError(await guess('123456'), 'PAYMENT_PASSWORD_INCORRECT');
    // Used once.
    expectError(await reset({ code, password: '111111' }), 'CODE_INVALID');

    // A code older than 5 minutes no longer works.
    t.clock.advance(61 * SECOND);
    await call(user, 'POST', '/wallet/password/code', { channel: user.channel });
    const late = t.codeFor(user.destination, 'wallet');
    t.clock.advance(5 * 60 * SECOND);
    expectError(await reset({ code: late, password: '222222' }), 'CODE_EXPIRED');
  });

  it('needs a password before checking one, and a wallet of one’s own', async () => {
    const user = await t.register();
    expectError(
      await call(user, 'POST', '/wallet/password/verify', { password: '123456' }),
      'WALLET_NOT_FOUND',
    );
    await call(user, 'POST', '/wallet');
    expectError(
      await call(user, 'POST', '/wallet/password/verify', { password: '123456' }),
      'PAYMENT_PASSWORD_NOT_SET',
    );
    // Another person's password is no help.
    await withPassword();
    expectError(
      await call(user, 'POST', '/wallet/password/verify', { password: '123456' }),
      'PAYMENT_PASSWORD_NOT_SET',
    );
  });

  it('shows the ledger’s balances, available and held', async () => {
    const user = await withPassword();
    await t.ctx.db.transaction().execute((trx) =>
      t.ctx.services.ledger.post(trx, {
        key: `test-recharge-${user.user.id}`,
        kind: 'recharge',
        entries: [
          { account: { app: 'outside', currency: 'PI' }, amount: -35_000_000 },
          {
            account: { user: user.user.id, purpose: 'available', currency: 'PI' },
            amount: 25_000_000,
          },
          { account: { user: user.user.id, purpose: 'held', currency: 'PI' }, amount: 10_000_000 },
        ],
      }),
    );
    expect((await wallet(user)).balances).toEqual([
      { currency: 'PI', available: 25_000_000, held: 10_000_000 },
    ]);
  });
});
