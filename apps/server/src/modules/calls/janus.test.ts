import { groupConversationId, type MyGroup, type SfuJoinResult } from '@teltlk/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { befriend, userApi } from '../../test/fixtures.js';
import { createTestApp, expectError } from '../../test/harness.js';
import { JanusVideoRoom, SfuError, type SfuRoom } from './janus.js';

/**
 * The VideoRoom adapter against a real Janus (started by .ci/run with the configs of
 * infra/janus on TEST_JANUS_URL, its room admin key TEST_JANUS_ROOM_ADMIN_KEY): rooms are
 * made only with the admin key, and only holders of a room's tokens join it. Skipped
 * where no Janus is configured.
 */
const JANUS_URL = process.env.TEST_JANUS_URL;
const ADMIN_KEY = process.env.TEST_JANUS_ROOM_ADMIN_KEY;

interface JanusEvent {
  janus: string;
  plugindata?: { data?: { videoroom?: string; error_code?: number; error?: string } };
}

describe.runIf(JANUS_URL && ADMIN_KEY)('Janus VideoRoom adapter', () => {
  const url = JANUS_URL ?? '';
  const sfu = new JanusVideoRoom({ url, publicUrl: url, adminKey: ADMIN_KEY ?? null });
  const rooms: SfuRoom[] = [];

  afterAll(async () => {
    for (const room of rooms) await sfu.destroyRoom(room).catch(() => undefined);
  });

  /**
   * Joins a room as a publisher the way a browser does (a session, a handle on the
   * plugin, a join), and answers the plugin's event: joined, or the error it refused with.
   */
  async function join(room: number, token: string | null): Promise<JanusEvent['plugindata']> {
    const session = await sfu.open();
    try {
      const handle = await sfu.attach(session);
      const ack = await sfu.post(`/${session}/${handle}`, {
        janus: 'message',
        body: {
          request: 'join',
          ptype: 'publisher',
          room,
          display: 'tester',
          ...(token ? { token } : {}),
        },
      });
      expect(ack.janus).toBe('ack');
      // The answer to a join comes as an event, fetched by a long poll of the session.
      for (let tries = 0; tries < 5; tries += 1) {
        const response = await fetch(`${url}/${session}?maxev=1`, {
          signal: AbortSignal.timeout(5000),
        });
        const events = [(await response.json()) as JanusEvent | JanusEvent[]].flat();
        const event = events.find((e) => e.janus === 'event' && e.plugindata);
        if (event) return event.plugindata;
      }
      throw new Error('no answer to the join');
    } finally {
      await sfu.post(`/${session}`, { janus: 'destroy' }).catch(() => undefined);
    }
  }

  it('makes a room that admits the tokens it is given, and refuses any other', async () => {
    const room = await sfu.createRoom({ publishers: 16, tokens: ['token-of-ada'] });
    rooms.push(room);
    expect(await join(room.id, 'token-of-ada')).toMatchObject({ data: { videoroom: 'joined' } });
    const refused = await join(room.id, 'a-guessed-token');
    expect(refused?.data?.videoroom).toBe('event');
    expect(refused?.data?.error_code).toBe(433);
    expect((await join(room.id, null))?.data?.error_code).toBe(433);
    await sfu.allow(room, ['token-of-bob']);
    expect(await join(room.id, 'token-of-bob')).toMatchObject({ data: { videoroom: 'joined' } });
  });

  it('needs the room secret to add tokens, and the admin key to make rooms', async () => {
    const room = await sfu.createRoom({ publishers: 50, tokens: [] });
    rooms.push(room);
    await expect(sfu.allow({ id: room.id, secret: 'wrong secret' }, ['mine'])).rejects.toThrow(
      SfuError,
    );
    const withoutKey = new JanusVideoRoom({ url, publicUrl: url, adminKey: null });
    await expect(withoutKey.createRoom({ publishers: 4, tokens: ['x'] })).rejects.toThrow(SfuError);
    await sfu.destroyRoom(room);
    rooms.pop();
    await expect(sfu.allow(room, ['late'])).rejects.toThrow(SfuError);
  });

  it('gives each person who joined a group call their own way into its room', async () => {
    const t = await createTestApp({
      env: { JANUS_URL: url, JANUS_ROOM_ADMIN_KEY: ADMIN_KEY ?? '' },
    });
    try {
      const { call, ok } = userApi(() => t);
      const [ada, bob, eve] = [await t.register(), await t.register(), await t.register()];
      await befriend(t, ada, bob);
      const group = ok<MyGroup>(await call(ada, 'POST', '/groups', { memberIds: [bob.user.id] }));
      const { calls, sessions } = t.ctx.services;
      const device = async (token: string) => {
        const { userId, sessionId } = await sessions.authenticate(token);
        return { userId, sessionId };
      };
      const started = await calls.invite(await device(ada.token), {
        clientCallId: 'group-call-1',
        conversationId: groupConversationId(group.id),
        media: 'video',
      });
      const adaWay = ok<SfuJoinResult>(await call(ada, 'POST', `/calls/${started.id}/sfu`));
      expect(adaWay).toMatchObject({ url, display: ada.user.id, publishers: 16 });
      // Rung but not in the call yet: no way in; once joined, one of its own.
      expectError(await call(bob, 'POST', `/calls/${started.id}/sfu`), 'CALL_STATE_CHANGED');
      await calls.act(await device(bob.token), started.id, { type: 'accept' });
      const bobWay = ok<SfuJoinResult>(await call(bob, 'POST', `/calls/${started.id}/sfu`));
      expect(bobWay.room).toBe(adaWay.room);
      expect(bobWay.token).not.toBe(adaWay.token);
      // Asked again, the same way in.
      expect(ok(await call(bob, 'POST', `/calls/${started.id}/sfu`))).toEqual(bobWay);
      expectError(await call(eve, 'POST', `/calls/${started.id}/sfu`), 'CALL_NOT_FOUND');
      for (const way of [adaWay, bobWay]) {
        expect(await join(way.room, way.token)).toMatchObject({ data: { videoroom: 'joined' } });
      }
      expect((await join(adaWay.room, 'not-a-members-token'))?.data?.error_code).toBe(433);
      // The call over, its room is gone.
      await calls.act(await device(ada.token), started.id, { type: 'hangup' });
      await calls.act(await device(bob.token), started.id, { type: 'hangup' });
      await calls.close();
      expect((await join(adaWay.room, adaWay.token))?.data?.error_code).toBe(426);
    } finally {
      await t.close();
    }
  });
});
