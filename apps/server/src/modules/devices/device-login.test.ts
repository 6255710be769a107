import { SOCKET_CLOSE, type ServerFrame } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { socketUrl, TestSocket } from '../../test/test-client.js';

/**
 * Device login end to end: a signed-out browser asks for a ticket and waits on its socket,
 * a signed-in device looks it up (by id or typed code) and approves or refuses, and the
 * browser is signed in with a session of its own, or told no, or told it ran out.
 */
describe.each(dialects)('device login on $dialect', ({ dialect }) => {
  let t: TestApp;
  let url: string;
  let ada: RegisteredUser;
  const sockets: TestSocket[] = [];
  const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130.0 Safari/537.36';

  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { DEVICE_LOGIN_TTL_SECONDS: '1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
    ada = await t.register();
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await t.close();
  });

  async function newTicket(ip = '81.2.69.160') {
    const response = await t.call('POST', '/api/v1/auth/device-logins', {
      headers: { 'user-agent': BROWSER },
      ip,
    });
    expect(response.statusCode).toBe(200);
    return response.json<Ticket>();
  }

  async function waitOn(ticket: { id: string; secret: string }): Promise<TestSocket> {
    const socket = await TestSocket.open(url);
    sockets.push(socket);
    socket.send({ t: 'ticket', id: ticket.id, secret: ticket.secret });
    return socket;
  }

  interface Ticket {
    id: string;
    secret: string;
    code: string;
    match: string;
    expiresAt: number;
  }

  /** Approves with the number the ticket's screen shows and the account password. */
  const decide = (ticket: Ticket, approve: boolean, as = ada) =>
    t.call('POST', `/api/v1/device-logins/${ticket.id}/decision`, {
      token: as.token,
      body: approve
        ? { approve, match: ticket.match, proof: { method: 'password', password: PASSWORD } }
        : { approve },
    });

  it('signs the waiting browser in once approved, with a session of its own', async () => {
    const ticket = await newTicket();
    expect(ticket.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    const socket = await waitOn(ticket);

    const view = await t.call('GET', `/api/v1/device-logins/${ticket.id}`, { token: ada.token });
    expect(view.json()).toMatchObject({
      id: ticket.id,
      userAgent: BROWSER,
      ip: '81.2.69.160',
      // Placed by the registries' table of address ranges.
      country: 'GB',
      state: 'pending',
    });
    expect(view.json()).not.toHaveProperty('secret');

    expect((await decide(ticket, true)).json()).toMatchObject({ state: 'approved' });
    const signedIn = await socket.next(
      (f): f is Extract<ServerFrame, { t: 'signedIn' }> => f.t === 'signedIn',
    );
    expect(signedIn.auth.user.id).toBe(ada.user.id);
    expect((await socket.closed).code).toBe(1000);

    // The new token works, and its session is listed with the browser that asked.
    const sessions = await t.call('GET', '/api/v1/sessions', { token: signedIn.auth.token });
    const list = sessions.json<{ sessions: { current: boolean; userAgent: string | null }[] }>();
    expect(list.sessions.find((s) => s.current)).toMatchObject({ userAgent: BROWSER });
    expect(list.sessions).toHaveLength(2);

    // Used up: it cannot be decided again, nor taken by another socket.
    expectError(await decide(ticket, true), 'LOGIN_TICKET_DECIDED');
    const again = await waitOn(ticket);
    expect(await again.next((f) => f.t === 'ticket')).toMatchObject({ state: 'expired' });
  });

  it('takes an approval that came before the socket', async () => {
    const ticket = await newTicket();
    await decide(ticket, true);
    const socket = await waitOn(ticket);
    expect(await socket.next((f) => f.t === 'signedIn')).toMatchObject({
      auth: { user: { id: ada.user.id } },
    });
  });

  it('tells the browser when the login is refused', async () => {
    const ticket = await newTicket();
    const socket = await waitOn(ticket);
    expect((await decide(ticket, false)).json()).toMatchObject({ state: 'refused' });
    expect(await socket.next((f) => f.t === 'ticket')).toEqual({ t: 'ticket', state: 'refused' });
    expect((await socket.closed).code).toBe(1000);
    const sessions = await t.ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', ada.user.id)
      .where('user_agent', '=', BROWSER)
      .execute();
    // Only the two approvals above made sessions.
    expect(sessions).toHaveLength(2);
  });

  it('finds a ticket by its typed code, whatever the case and dashes', async () => {
    // From an address of a private network, which has no place.
    const ticket = await newTicket('192.168.1.20');
    const typed = `${ticket.code.slice(0, 4).toLowerCase()}-${ticket.code.slice(4)}`;
    const found = await t.call('POST', '/api/v1/device-logins/lookup', {
      token: ada.token,
      body: { code: typed },
    });
    expect(found.json()).toMatchObject({
      id: ticket.id,
      ip: '192.168.1.20',
      country: null,
      state: 'pending',
    });
    const wrong = await t.call('POST', '/api/v1/device-logins/lookup', {
      token: ada.token,
      body: { code: 'ZZZZ9999' },
    });
    expectError(wrong, 'LOGIN_CODE_INVALID');
    const malformed = await t.call('POST', '/api/v1/device-logins/lookup', {
      token: ada.token,
      body: { code: 'abc' },
    });
    expect(expectError(malformed, 'VALIDATION_FAILED').issues).toEqual([
      { path: 'code', rule: 'invalid' },
    ]);
  });

  it('runs out: the browser is told, and it can no longer be approved or found', async () => {
    const ticket = await newTicket();
    const socket = await waitOn(ticket);
    // The ticket's timer (1 s here) fires after the clock has passed its end.
    t.clock.advance(2_000);
    expect(await socket.next((f) => f.t === 'ticket', 5_000)).toEqual({
      t: 'ticket',
      state: 'expired',
    });
    expectError(await decide(ticket, true), 'LOGIN_TICKET_EXPIRED');
    const lookup = await t.call('POST', '/api/v1/device-logins/lookup', {
      token: ada.token,
      body: { code: ticket.code },
    });
    expectError(lookup, 'LOGIN_CODE_INVALID');
    const view = await t.call('GET', `/api/v1/device-logins/${ticket.id}`, { token: ada.token });
    expectError(view, 'LOGIN_TICKET_EXPIRED');
  });

  it('closes a socket that names a ticket with the wrong secret', async () => {
    const ticket = await newTicket();
    const socket = await waitOn({ id: ticket.id, secret: 'not-the-secret' });
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.tokenInvalid);
    const unknown = await t.call('GET', '/api/v1/device-logins/nosuchticket', {
      token: ada.token,
    });
    expectError(unknown, 'NOT_FOUND');
  });

  it('purges tickets a day after they ran out', async () => {
    const ticket = await newTicket();
    t.clock.advance(25 * 60 * 60 * 1000);
    await t.ctx.services.deviceLogins.purge();
    const row = await t.ctx.db
      .selectFrom('device_logins')
      .select('id')
      .where('id', '=', ticket.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
