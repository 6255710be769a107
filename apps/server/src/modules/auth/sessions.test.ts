import { type AuthResult, SESSION_TTL_DAYS, type SessionListResult } from '@teltlk/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY, SECOND } from '../../lib/clock.js';
import { dialects, expectError, PASSWORD, type TestApp } from '../../test/harness.js';
import { authApp } from './auth-app.js';

describe.each(dialects)('auth on $dialect', ({ dialect }) => {
  const app = authApp(dialect);
  let t: TestApp;
  beforeEach(() => {
    t = app.t;
  });
  const { login, me } = app;

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
});
