import type { OutboxResult } from '@teltlk/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  expectError,
  uniqueEmail,
  uniquePhone,
  type TestApp,
} from '../../test/harness.js';
import type { EmailMessage, EmailProvider, SmsMessage, SmsProvider } from '../notify/providers.js';
import { isLoopback } from './routes.js';

class Recorder implements EmailProvider, SmsProvider {
  sent: (EmailMessage | SmsMessage)[] = [];
  send(message: EmailMessage | SmsMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }
}

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1', '::FFFF:127.0.0.2'])(
    '%s is this machine',
    (address) => expect(isLoopback(address)).toBe(true),
  );
  it.each([
    undefined,
    '',
    '10.0.0.1',
    '0.0.0.0',
    '128.0.0.1',
    '::ffff:10.0.0.1',
    '::',
    '2001:db8::1',
    '127.0.0.1.example.com',
    'localhost',
    'unknown',
  ])('%s is not', (address) => expect(isLoopback(address)).toBe(false));
});

describe('dev outbox access', () => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  /** Sends a registration code by email, then reads both outbox routes as the given client. */
  async function readOutbox(ip: string, headers: Record<string, string> = {}) {
    const destination = uniqueEmail();
    const sent = await t.call('POST', '/api/v1/auth/codes', {
      body: { purpose: 'register', channel: 'email', destination },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = t.codeFor(destination, 'register');
    const json = await t.call('GET', '/api/v1/dev/outbox', { ip, headers });
    const page = await t.call('GET', '/dev/outbox', { ip, headers });
    return { code, json, page };
  }

  it.each(['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1'])(
    'serves codes to this machine (%s), and says so on the page',
    async (ip) => {
      t = await createTestApp();
      const { code, json, page } = await readOutbox(ip);
      expect(json.statusCode).toBe(200);
      expect(
        json.json<OutboxResult>().messages.map((m) => (m.kind === 'code' ? m.code : null)),
      ).toContain(code);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(code);
      expect(page.body).toContain('only requests made on this machine');
      expect(page.body).toContain('have no provider configured');
    },
  );

  it.each(['203.0.113.9', '10.0.0.1', '192.168.1.20', '::ffff:10.0.0.1', '2001:db8::7'])(
    'is not found from another machine (%s)',
    async (ip) => {
      t = await createTestApp();
      const { code, json, page } = await readOutbox(ip);
      expectError(json, 'NOT_FOUND');
      expectError(page, 'NOT_FOUND');
      expect(json.body + page.body).not.toContain(code);
    },
  );

  it.each<Record<string, string>>([
    { 'x-forwarded-for': '203.0.113.9' },
    { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' },
    { 'x-real-ip': '203.0.113.9' },
    { forwarded: 'for=203.0.113.9;proto=https' },
    { forwarded: 'for="[2001:db8::7]:4711"' },
    { forwarded: 'for=unknown' },
  ])('is not found through a reverse proxy on this machine (%j)', async (headers) => {
    // The proxy connects over loopback; the server does not trust it (TRUST_PROXY unset).
    t = await createTestApp();
    const { json, page } = await readOutbox('127.0.0.1', headers);
    expectError(json, 'NOT_FOUND');
    expectError(page, 'NOT_FOUND');
  });

  it('goes by the forwarded client behind a trusted proxy', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'loopback' } });
    const stranger = await readOutbox('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' });
    expectError(stranger.json, 'NOT_FOUND');
    expectError(stranger.page, 'NOT_FOUND');
    const local = await readOutbox('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' });
    expect(local.json.statusCode).toBe(200);
    expect(local.page.statusCode).toBe(200);
  });

  it('holds only codes of channels without a provider', async () => {
    const email = new Recorder();
    t = await createTestApp({ email });
    const address = uniqueEmail();
    const phone = uniquePhone();
    for (const [channel, destination] of [
      ['email', address],
      ['phone', phone],
    ] as const) {
      const sent = await t.call('POST', '/api/v1/auth/codes', {
        body: { purpose: 'register', channel, destination },
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    expect(email.sent.map((m) => m.to)).toEqual([address]);
    const { messages } = (
      await t.call('GET', '/api/v1/dev/outbox', { ip: '127.0.0.1' })
    ).json<OutboxResult>();
    expect(messages.map((m) => m.destination)).toEqual([phone]);
  });

  it('does not exist when every channel has a provider, even for this machine', async () => {
    const provider = new Recorder();
    t = await createTestApp({ email: provider, sms: provider });
    expect(t.ctx.outbox).toBeNull();
    const sent = await t.call('POST', '/api/v1/auth/codes', {
      body: { purpose: 'register', channel: 'email', destination: uniqueEmail() },
    });
    expect(sent.statusCode).toBe(200);
    expect(provider.sent).toHaveLength(1);
    expectError(await t.call('GET', '/api/v1/dev/outbox', { ip: '127.0.0.1' }), 'NOT_FOUND');
    expectError(await t.call('GET', '/dev/outbox', { ip: '127.0.0.1' }), 'NOT_FOUND');
  });
});
