import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPiSandbox, type RunningPiSandbox } from '@teltlk/pi-sandbox';
import type { AuthResult, Me, PiLoginResult, WalletResult } from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../lib/clock.js';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  uniquePhone,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { PI_TEST_KEY, piEnv } from '../../test/pi-sandbox.js';

const API_KEY = PI_TEST_KEY;

describe.each(dialects)('Pi identity on $dialect', ({ dialect }) => {
  let sandbox: RunningPiSandbox;
  let t: TestApp;
  beforeAll(async () => {
    sandbox = await startPiSandbox({ apiKey: API_KEY });
  });
  afterAll(async () => {
    await sandbox.close();
  });
  beforeEach(async () => {
    t = await createTestApp({ dialect, env: piEnv(sandbox) });
  });
  afterEach(async () => {
    await t.close();
  });

  let people = 0;
  /** A new Pi user of the sandbox and their access token. */
  const piUser = (scopes?: string[]) => {
    people += 1;
    return sandbox.emulator.signIn(
      `pioneer_${dialect}_${Date.now().toString(36)}_${people}`,
      scopes,
    );
  };
  const piLogin = async (accessToken: string) => {
    const response = await t.call('POST', '/api/v1/auth/pi', { body: { accessToken } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PiLoginResult>();
  };
  const unbound = async (accessToken: string) => {
    const result = await piLogin(accessToken);
    if (result.status !== 'unbound') throw new Error('expected an unknown Pi account');
    return result;
  };
  const registerWithPi = async (ticket: string, nickname = 'Pioneer') => {
    const response = await t.call('POST', '/api/v1/auth/pi/register', {
      body: { ticket, nickname, country: 'NG', motherTongue: 'en' },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuthResult>();
  };
  const bindWithPassword = (ticket: string, user: RegisteredUser, password = PASSWORD) =>
    t.call('POST', '/api/v1/auth/pi/bind', {
      body: { proof: 'password', ticket, account: user.destination, password },
    });
  const me = async (token: string) => (await t.call('GET', '/api/v1/me', { token })).json<Me>();

  it('tells the web app where the SDK loads from', async () => {
    const response = await t.call('GET', '/api/v1/pi/config');
    expect(response.json()).toEqual({
      sdkUrl: `${sandbox.url}/pi-sdk.js`,
      sandbox: true,
      sandboxHostUrl: `${sandbox.url}/`,
    });
  });

  it('lets the Pi sandbox load the SDK and frame the app, and nobody else', async () => {
    const response = await t.call('GET', '/api/v1/pi/config');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' ${sandbox.url}`);
    expect(csp).toMatch(new RegExp(`connect-src [^;]*${sandbox.url.replace(/\./g, '\\.')}`));
    expect(csp).toContain(`frame-ancestors 'self' https://sandbox.minepi.com ${sandbox.url}`);
    expect(response.headers['x-frame-options']).toBeUndefined();
  });

  it('makes an account for a new Pi user, and signs them in with Pi again', async () => {
    const { accessToken, user } = piUser();
    const first = await unbound(accessToken);
    expect(first.piUsername).toBe(user.username);
    const auth = await registerWithPi(first.ticket);
    expect(auth.user).toMatchObject({
      nickname: 'Pioneer',
      piUsername: user.username,
      hasPassword: false,
      phone: null,
      email: null,
    });
    const again = await piLogin(accessToken);
    expect(again.status).toBe('signedIn');
    if (again.status === 'signedIn') expect(again.auth.user.id).toBe(auth.user.id);
  });

  it('keys the account on the uid Pi returns, whatever token names it', async () => {
    const { accessToken } = piUser();
    const auth = await registerWithPi((await unbound(accessToken)).ticket);
    // The same person, a new token (another device): the same account.
    const person = [...sandbox.emulator.users.values()].find(
      (u) => u.username === auth.user.piUsername,
    )!;
    const other = sandbox.emulator.signIn(person.username);
    const again = await piLogin(other.accessToken);
    expect(again.status === 'signedIn' && again.auth.user.id).toBe(auth.user.id);
  });

  it('uses a ticket once, and not after it expires', async () => {
    const { accessToken } = piUser();
    const { ticket } = await unbound(accessToken);
    await registerWithPi(ticket);
    expectError(
      await t.call('POST', '/api/v1/auth/pi/register', {
        body: { ticket, nickname: 'Again', country: 'NG', motherTongue: 'en' },
      }),
      'PI_TICKET_INVALID',
    );
    const late = await unbound(piUser().accessToken);
    t.clock.advance(16 * MINUTE);
    expectError(
      await t.call('POST', '/api/v1/auth/pi/register', {
        body: { ticket: late.ticket, nickname: 'Late', country: 'NG', motherTongue: 'en' },
      }),
      'PI_TICKET_INVALID',
    );
  });

  it('binds a Pi account to an existing account proven by its password', async () => {
    const owner = await t.register();
    const { accessToken, user } = piUser();
    const { ticket } = await unbound(accessToken);
    expectError(await bindWithPassword(ticket, owner, 'Wr0ngPassword'), 'PASSWORD_INCORRECT');
    const bound = await bindWithPassword(ticket, owner);
    expect(bound.statusCode, bound.body).toBe(200);
    expect(bound.json<AuthResult>().user).toMatchObject({
      id: owner.user.id,
      piUsername: user.username,
      hasPassword: true,
    });
    const again = await piLogin(accessToken);
    expect(again.status === 'signedIn' && again.auth.user.id).toBe(owner.user.id);
  });

  it('binds one Pi account to one account, and the other way round', async () => {
    const owner = await t.register();
    const first = piUser();
    const { ticket } = await unbound(first.accessToken);
    expect((await bindWithPassword(ticket, owner)).statusCode).toBe(200);
    // A second Pi account cannot take the same Teltlk account.
    const second = await unbound(piUser().accessToken);
    expectError(await bindWithPassword(second.ticket, owner), 'ACCOUNT_PI_BOUND');
    // A uid with two tickets open (two devices) binds once.
    const twice = piUser();
    const [a, b] = [await unbound(twice.accessToken), await unbound(twice.accessToken)];
    await registerWithPi(a.ticket);
    const other = await t.register();
    expectError(await bindWithPassword(b.ticket, other), 'PI_ALREADY_BOUND');
    expect((await me(other.token)).piUsername).toBeNull();
  });

  it('binds Pi to the signed-in account with the session as proof', async () => {
    const owner = await t.register();
    const { accessToken, user } = piUser();
    const bound = await t.call('POST', '/api/v1/me/pi', {
      token: owner.token,
      body: { accessToken },
    });
    expect(bound.statusCode, bound.body).toBe(200);
    expect(bound.json<Me>().piUsername).toBe(user.username);
    const again = await piLogin(accessToken);
    expect(again.status === 'signedIn' && again.auth.user.id).toBe(owner.user.id);
    const other = await t.register();
    expectError(
      await t.call('POST', '/api/v1/me/pi', { token: other.token, body: { accessToken } }),
      'PI_ALREADY_BOUND',
    );
    expectError(
      await t.call('POST', '/api/v1/me/pi', {
        token: owner.token,
        body: { accessToken: 'made-up-token-123' },
      }),
      'PI_AUTH_FAILED',
    );
  });

  it('says an unknown account is unknown', async () => {
    const { ticket } = await unbound(piUser().accessToken);
    const response = await t.call('POST', '/api/v1/auth/pi/bind', {
      body: { proof: 'password', ticket, account: 'nobody@example.com', password: PASSWORD },
    });
    expectError(response, 'ACCOUNT_NOT_FOUND');
  });

  it('binds by code only an account without a password', async () => {
    const owner = await t.register({ channel: 'phone', destination: uniquePhone() });
    const { ticket } = await unbound(piUser().accessToken);
    await t.call('POST', '/api/v1/auth/codes', {
      body: { purpose: 'login', channel: 'phone', destination: owner.destination },
    });
    const code = t.codeFor(owner.destination, 'login');
    expectError(
      await t.call('POST', '/api/v1/auth/pi/bind', {
        body: { proof: 'code', ticket, channel: 'phone', destination: owner.destination, code },
      }),
      'PI_ACCOUNT_HAS_PASSWORD',
    );
  });

  it('adds a phone to an account made through Pi, then unbinds, then binds by code', async () => {
    const first = piUser();
    const auth = await registerWithPi((await unbound(first.accessToken)).ticket);
    expectError(
      await t.call('DELETE', '/api/v1/me/pi', { token: auth.token }),
      'PI_UNBIND_LAST_WAY_IN',
    );
    const phone = uniquePhone();
    await t.call('POST', '/api/v1/auth/codes', {
      body: { purpose: 'register', channel: 'phone', destination: phone },
    });
    const verified = await t.call('POST', '/api/v1/auth/codes/verify', {
      body: {
        purpose: 'register',
        channel: 'phone',
        destination: phone,
        code: t.codeFor(phone, 'register'),
      },
    });
    const { ticket: phoneTicket } = verified.json<{ ticket: string }>();
    const added = await t.call('POST', '/api/v1/me/phone', {
      token: auth.token,
      body: { ticket: phoneTicket },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json<Me>().phone).toBe(phone);

    const unbind = await t.call('DELETE', '/api/v1/me/pi', { token: auth.token });
    expect(unbind.statusCode, unbind.body).toBe(200);
    expect(unbind.json<Me>().piUsername).toBeNull();
    expectError(await t.call('DELETE', '/api/v1/me/pi', { token: auth.token }), 'NOT_FOUND');

    // The Pi account is free again; the account proves itself by a code to its phone.
    const { ticket } = await unbound(first.accessToken);
    await t.call('POST', '/api/v1/auth/codes', {
      body: { purpose: 'login', channel: 'phone', destination: phone },
    });
    const rebound = await t.call('POST', '/api/v1/auth/pi/bind', {
      body: {
        proof: 'code',
        ticket,
        channel: 'phone',
        destination: phone,
        code: t.codeFor(phone, 'login'),
      },
    });
    expect(rebound.statusCode, rebound.body).toBe(200);
    expect(rebound.json<AuthResult>().user.id).toBe(auth.user.id);
  });

  it('refuses a token Pi does not know', async () => {
    expectError(
      await t.call('POST', '/api/v1/auth/pi', { body: { accessToken: 'made-up-token-123' } }),
      'PI_AUTH_FAILED',
    );
    const { accessToken, user } = piUser();
    sandbox.emulator.revokeTokens(user.uid);
    expectError(
      await t.call('POST', '/api/v1/auth/pi', { body: { accessToken } }),
      'PI_AUTH_FAILED',
    );
  });

  it('keys an account on the uid even without the username scope', async () => {
    const { accessToken, user } = piUser(['payments']);
    const result = await unbound(accessToken);
    expect(result.piUsername).toBe(user.uid);
  });

  it('settles a payment Pi reports unfinished, for its payer only', async () => {
    const payer = piUser();
    const auth = await registerWithPi((await unbound(payer.accessToken)).ticket);
    const created = sandbox.emulator.handle(
      'POST',
      '/v2/payments/user_to_app',
      `Bearer ${payer.accessToken}`,
      { payment: { amount: 3.14, memo: 'Recharge', metadata: { orderId: 'o-1' } } },
    ).body as { identifier: string };
    sandbox.emulator.handle(
      'POST',
      `/v2/payments/${created.identifier}/approve`,
      `Key ${API_KEY}`,
      undefined,
    );
    sandbox.emulator.handle(
      'POST',
      `/sandbox/payments/${created.identifier}/sign`,
      undefined,
      undefined,
    );

    const report = (token: string, paymentId = created.identifier) =>
      t.call('POST', '/api/v1/pi/payments/incomplete', { token, body: { paymentId } });
    expect((await report(auth.token)).statusCode).toBe(204);
    expect((await report(auth.token)).statusCode).toBe(204);
    // Paid with no order of ours (another client made it): taken as a recharge, once.
    expect(sandbox.emulator.payments.get(created.identifier)!.status.developer_completed).toBe(
      true,
    );
    const wallet = await t.call('GET', '/api/v1/wallet', { token: auth.token });
    expect(wallet.json<WalletResult>().balances[0]).toMatchObject({ available: 31_400_000 });

    const other = await registerWithPi((await unbound(piUser().accessToken)).ticket);
    expectError(await report(other.token), 'PI_PAYMENT_NOT_YOURS');
    expectError(await report(auth.token, 'no-such-payment'), 'NOT_FOUND');
    const plain = await t.register();
    expectError(await report(plain.token), 'PI_ONLY');
  });
});

describe('Pi when Pi is away or off', () => {
  let silent: Server;
  let url: string;
  beforeAll(async () => {
    // Accepts the connection and never answers: Pi hanging.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('times out a /v2/me that does not answer', async () => {
    const t = await createTestApp({
      env: { PI_API_URL: `${url}/v2`, PI_API_KEY: API_KEY },
      piTimeoutMs: 300,
    });
    try {
      expectError(
        await t.call('POST', '/api/v1/auth/pi', { body: { accessToken: 'any-token-1234' } }),
        'PI_UNREACHABLE',
      );
    } finally {
      await t.close();
    }
  });

  it('says Pi is not available when it is not configured', async () => {
    const t = await createTestApp();
    try {
      expect((await t.call('GET', '/api/v1/pi/config')).json()).toMatchObject({ sdkUrl: null });
      expectError(
        await t.call('POST', '/api/v1/auth/pi', { body: { accessToken: 'any-token-1234' } }),
        'PI_UNAVAILABLE',
      );
      const csp = String(
        (await t.call('GET', '/api/v1/pi/config')).headers['content-security-policy'],
      );
      expect(csp).toContain("frame-ancestors 'self';");
    } finally {
      await t.close();
    }
  });
});
