import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CODE_RESEND_SECONDS } from '@teltlk/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { SECOND } from '../../lib/clock.js';
import {
  createTestApp,
  dialects,
  expectError,
  TestClock,
  uniqueEmail,
  uniquePhone,
  type TestApp,
} from '../../test/harness.js';
import type { EmailMessage, EmailProvider, SmsMessage } from './providers.js';
import { NotifyService } from './service.js';

/** An email provider that records messages, or fails while `failing` is set. */
class FakeEmail implements EmailProvider {
  sent: EmailMessage[] = [];
  failing = false;
  send(message: EmailMessage): Promise<void> {
    if (this.failing) return Promise.reject(new Error('SMTP 451 try later'));
    this.sent.push(message);
    return Promise.resolve();
  }
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

describe.each(dialects)('code delivery on $dialect', ({ dialect }) => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  const send = (destination: string, headers: Record<string, string> = {}) =>
    t.call('POST', '/api/v1/auth/codes', {
      body: { purpose: 'register', channel: 'email', destination },
      headers,
    });
  const verify = (destination: string, code: string) =>
    t.call('POST', '/api/v1/auth/codes/verify', {
      body: { purpose: 'register', channel: 'email', destination, code },
    });

  it('sends email through the provider, in the language of the request', async () => {
    const email = new FakeEmail();
    t = await createTestApp({ dialect, email });
    const cases: [string | undefined, RegExp][] = [
      [undefined, /verification code/i],
      ['zh_CN', /验证码/],
      ['zh_TW', /驗證碼/],
      ['en_US', /verification code/i],
    ];
    for (const [language, subject] of cases) {
      const destination = uniqueEmail();
      const response = await send(destination, language ? { 'accept-language': language } : {});
      expect(response.statusCode).toBe(200);
      const message = email.sent.at(-1);
      expect(message?.to).toBe(destination);
      expect(message?.subject).toMatch(subject);
      expect(message?.text).toMatch(/10/);
      // The emailed code is the one that works; the dev outbox is only for channels without a provider.
      expect((await verify(destination, codeIn(message?.text ?? ''))).statusCode).toBe(200);
    }
    expect(t.ctx.outbox?.list()).toEqual([]);
  });

  it('answers 502 when the provider fails, leaves nothing usable and allows an immediate retry', async () => {
    const email = new FakeEmail();
    t = await createTestApp({ dialect, email });
    const destination = uniqueEmail();
    email.failing = true;
    expectError(await send(destination), 'CODE_SEND_FAILED');
    const rows = await t.ctx.db
      .selectFrom('verification_codes')
      .selectAll()
      .where('destination', '=', destination)
      .where('consumed_at', 'is', null)
      .execute();
    expect(rows).toEqual([]);
    expectError(await verify(destination, '123456'), 'CODE_INVALID');

    email.failing = false;
    expect((await send(destination)).statusCode).toBe(200);
    expect((await verify(destination, codeIn(email.sent.at(-1)?.text ?? ''))).statusCode).toBe(200);
  });

  it('keeps the previous code working when a resend fails', async () => {
    const email = new FakeEmail();
    t = await createTestApp({ dialect, email });
    const destination = uniqueEmail();
    await send(destination);
    const first = codeIn(email.sent.at(-1)?.text ?? '');
    t.clock.advance(CODE_RESEND_SECONDS * SECOND);
    email.failing = true;
    expectError(await send(destination), 'CODE_SEND_FAILED');
    expect((await verify(destination, first)).statusCode).toBe(200);
  });

  it('posts SMS as JSON to the configured webhook, and fails over a non-2xx answer', async () => {
    const received: SmsMessage[] = [];
    let status = 200;
    const server = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        expect(request.headers['content-type']).toBe('application/json');
        received.push(JSON.parse(body) as SmsMessage);
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      t = await createTestApp({
        dialect,
        sms: undefined,
        env: { SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/sms` },
      });
      const phone = uniquePhone();
      const sent = await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'phone', destination: phone },
        headers: { 'accept-language': 'zh-TW' },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(received).toHaveLength(1);
      expect(received[0]?.to).toBe(phone);
      expect(received[0]?.text).toMatch(/驗證碼 \d{6}|驗證碼是 \d{6}/);

      status = 500;
      const failed = await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel: 'phone', destination: uniquePhone() },
      });
      expectError(failed, 'CODE_SEND_FAILED');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('in production, refuses a channel without a provider before anything else, and sends on the other', async () => {
    const email = new FakeEmail();
    t = await createTestApp({
      dialect,
      email,
      env: {
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        PUBLIC_URL: 'https://teltlk.example',
      },
    });
    expect(t.ctx.outbox).toBeNull();
    const phone = uniquePhone();
    for (const purpose of ['register', 'login', 'reset']) {
      const refused = await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose, channel: 'phone', destination: phone },
      });
      expect(expectError(refused, 'CHANNEL_UNAVAILABLE').message).toBe(
        'Verification codes cannot be sent this way on this server, please use another way',
      );
    }
    const rows = await t.ctx.db
      .selectFrom('verification_codes')
      .select('id')
      .where('destination', '=', phone)
      .execute();
    expect(rows).toEqual([]);

    const address = uniqueEmail();
    expect((await send(address)).statusCode).toBe(200);
    expect(email.sent.map((message) => message.to)).toEqual([address]);
  });

  it('refuses at send too when a channel has neither a provider nor the outbox', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
    const notify = new NotifyService({
      email: null,
      sms: null,
      outbox: null,
      logger,
      clock: new TestClock(),
    });
    expect(notify.canSend('email')).toBe(false);
    expect(notify.channelsWithoutProvider()).toEqual(['email', 'phone']);
    const delivery = {
      channel: 'email' as const,
      destination: uniqueEmail(),
      purpose: 'login' as const,
      code: '042917',
      ttlSeconds: 180,
      language: 'en_US' as const,
    };
    await expect(notify.sendCode(delivery)).rejects.toMatchObject({ code: 'CHANNEL_UNAVAILABLE' });
    expect(lines.join('')).not.toContain('042917');
  });

  it('without a provider, puts codes in the outbox outside production', async () => {
    t = await createTestApp({ dialect });
    const destination = uniqueEmail();
    await send(destination);
    const [message] = t.ctx.outbox?.list() ?? [];
    expect(message).toMatchObject({
      kind: 'code',
      channel: 'email',
      destination,
      purpose: 'register',
      createdAt: t.clock.now(),
    });
    expect(message?.kind === 'code' ? message.code : null).toMatch(/^\d{6}$/);
  });
});
