import { CODE_RESEND_SECONDS, type Channel, type CodePurpose } from '@teltlk/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../lib/clock.js';
import {
  createTestApp,
  dialects,
  PASSWORD,
  uniqueEmail,
  uniquePhone,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import type { SmsMessage, SmsProvider } from '../notify/providers.js';

/** What a caller can read off an answer: status and body. */
const seen = (response: LightMyRequestResponse) => ({
  status: response.statusCode,
  body: response.body,
});

/**
 * Outside the answers the spec names ('This account has been registered' when asking for a
 * registration code, and the sign-in and search messages), a stranger must not learn from
 * the API whether an address has an account.
 */
describe.each(dialects)(
  'answers that do not tell who has an account, on $dialect',
  ({ dialect }) => {
    let t: TestApp;
    beforeEach(async () => {
      t = await createTestApp({ dialect });
    });
    afterEach(async () => {
      await t.close();
    });

    const sendCode = (purpose: CodePurpose, channel: Channel, destination: string) =>
      t.call('POST', '/api/v1/auth/codes', { body: { purpose, channel, destination } });
    const useCode = (purpose: 'login' | 'reset', channel: Channel, destination: string) =>
      purpose === 'login'
        ? t.call('POST', '/api/v1/auth/login/code', {
            body: { channel, destination, code: '000000' },
          })
        : t.call('POST', '/api/v1/auth/password/reset', {
            body: { channel, destination, code: '000000', password: 'N3wPassword' },
          });

    describe.each([
      ['email', uniqueEmail],
      ['phone', uniquePhone],
    ] as const)('by %s', (channel, unique) => {
      let known: RegisteredUser;
      beforeEach(async () => {
        known = await t.register({ channel, destination: unique() });
        // Past the resend interval of the registration code.
        t.clock.advance(CODE_RESEND_SECONDS * SECOND);
      });

      it.each(['login', 'reset'] as const)(
        'answers a %s code request, a resend and a guess alike for known and unknown accounts',
        async (purpose) => {
          const unknown = unique();
          const first = [known.destination, unknown].map((d) => sendCode(purpose, channel, d));
          const [knownSent, unknownSent] = await Promise.all(first);
          expect(seen(unknownSent!)).toEqual(seen(knownSent!));
          expect(knownSent!.statusCode).toBe(200);

          const again = await Promise.all(
            [known.destination, unknown].map((d) => sendCode(purpose, channel, d)),
          );
          expect(seen(again[1]!)).toEqual(seen(again[0]!));
          expect(again[0]!.statusCode).toBe(429);

          // A guess is a wrong code either way (a known account's real code is not 000000 or
          // is replaced below by one that is not).
          const code = t.codeFor(known.destination, purpose);
          if (code !== '000000') {
            const guesses = await Promise.all(
              [known.destination, unknown].map((d) => useCode(purpose, channel, d)),
            );
            expect(seen(guesses[1]!)).toEqual(seen(guesses[0]!));
            expect(guesses[0]!.json<{ error: { code: string } }>().error.code).toBe('CODE_INVALID');
          }

          // Nothing went out to the address without an account.
          expect(t.ctx.outbox?.list().some((m) => m.destination === unknown)).toBe(false);
        },
      );
    });
  },
);

/** An SMS gateway that records messages, or refuses them while `failing` is set. */
class Gateway implements SmsProvider {
  sent: SmsMessage[] = [];
  failing = false;
  send(message: SmsMessage): Promise<void> {
    if (this.failing) return Promise.reject(new Error('gateway: number not reachable'));
    this.sent.push(message);
    return Promise.resolve();
  }
}

// Its own app with an SMS gateway, apart from the suite's.
describe.each(dialects)('a failing provider on $dialect', ({ dialect }) => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it.each(['login', 'reset'] as const)(
    'does not tell a known number from an unknown one by a %s code that could not go out',
    async (purpose) => {
      const gateway = new Gateway();
      t = await createTestApp({ dialect, sms: gateway });
      const phone = uniquePhone();
      const send = (p: CodePurpose, destination: string) =>
        t.call('POST', '/api/v1/auth/codes', {
          body: { purpose: p, channel: 'phone', destination },
        });
      expect((await send('register', phone)).statusCode).toBe(200);
      const code = /\d{6}/.exec(gateway.sent[0]?.text ?? '')?.[0] ?? '';
      const verified = await t.call('POST', '/api/v1/auth/codes/verify', {
        body: { purpose: 'register', channel: 'phone', destination: phone, code },
      });
      const registered = await t.call('POST', '/api/v1/auth/register', {
        body: {
          ticket: verified.json<{ ticket: string }>().ticket,
          nickname: 'Ada',
          password: PASSWORD,
          country: 'CN',
          motherTongue: 'zh',
        },
      });
      expect(registered.statusCode, registered.body).toBe(200);

      t.clock.advance(CODE_RESEND_SECONDS * SECOND);
      gateway.failing = true;
      const [known, unknown] = await Promise.all([
        send(purpose, phone),
        send(purpose, uniquePhone()),
      ]);
      expect(seen(known)).toEqual(seen(unknown));
      expect(known.statusCode).toBe(200);
      // The undelivered code does not hold back a retry once the gateway is back.
      await t.ctx.services.codes.drain();
      gateway.failing = false;
      expect((await send(purpose, phone)).statusCode).toBe(200);
      await t.ctx.services.codes.drain();
      expect(gateway.sent.at(-1)?.to).toBe(phone);
    },
  );
});
