import {
  callApi,
  GroupCallDevice,
  serveGroupCallPage,
  type GroupCallPageServer,
  type PageIceServer,
  type PageSeen,
  type SfuWay,
} from '@teltlk/test-kit';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchConsole, type ApiAccount } from './harness.js';
import { browserSuite } from './suite.js';

/**
 * Group calls' media through the real Janus (started by .ci/run with the configs of
 * infra/janus on TEST_JANUS_URL, its room admin key TEST_JANUS_ROOM_ADMIN_KEY): three
 * people in a group call made through the server (invited and accepted over the socket,
 * each given their way into the room by POST /calls/:id/sfu), each in a Chromium page of
 * their own with the web app's Janus client, publishing the fake camera and a tone. The
 * page comes from an origin of its own, so Janus's API is called across origins as from
 * the app. Skipped where no Janus is configured.
 */
const JANUS_URL = process.env.TEST_JANUS_URL;
const ADMIN_KEY = process.env.TEST_JANUS_ROOM_ADMIN_KEY;

const CAMERA = { width: 320, height: 240, frameRate: 15 };

describe.runIf(JANUS_URL && ADMIN_KEY)('group calls through Janus', () => {
  const suite = browserSuite({ JANUS_URL: JANUS_URL ?? '', JANUS_ROOM_ADMIN_KEY: ADMIN_KEY ?? '' });
  let pages: GroupCallPageServer;
  const contexts: BrowserContext[] = [];
  const consoleErrors: string[][] = [];

  beforeAll(async () => {
    pages = await serveGroupCallPage();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await pages?.close();
    expect(consoleErrors.flat()).toEqual([]);
  });

  /** A browser of its own, on the group call page. */
  async function device(): Promise<GroupCallDevice> {
    const context = await suite.browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    consoleErrors.push(watchConsole(page));
    await page.goto(pages.url);
    return new GroupCallDevice(page);
  }

  /** What a page received from each other person: bytes of audio and of video flowing. */
  async function flowing(at: GroupCallDevice, from: ApiAccount[]): Promise<string[]> {
    const received = await at.received();
    return from.map(({ id }) => {
      const bytes = received[id];
      return `${id} audio:${(bytes?.audio ?? 0) > 0} video:${(bytes?.video ?? 0) > 0}`;
    });
  }
  const allFlowing = (from: ApiAccount[]) => from.map(({ id }) => `${id} audio:true video:true`);

  const participants = async (at: GroupCallDevice) => (await at.seen()).participants;

  it('lets each person receive the others, hear who talks, mutes and leaves, and refuses a stranger', async () => {
    const { baseUrl } = suite.server;
    const wsUrl = `${baseUrl.replace(/^http/, 'ws')}/ws`;
    const [ada, bob, cai] = await suite.accounts('Ada', 'Bob', 'Cai');
    const group = await callApi<{ id: string }>(baseUrl, 'POST', '/groups', {
      body: { name: 'Call club', memberIds: [bob.id, cai.id] },
      token: ada.token,
    });
    const people = [ada, bob, cai] as const;
    const devices = await Promise.all(people.map(() => device()));
    const [adaCall, bobCall, caiCall] = devices as [
      GroupCallDevice,
      GroupCallDevice,
      GroupCallDevice,
    ];

    // Ada calls the group; Bob and Cai accept over the socket, as the app does.
    const call = await adaCall.frame<{ id: string }>(wsUrl, ada.token, {
      t: 'callInvite',
      clientCallId: `group-call-${Date.now().toString(36)}`,
      conversationId: `sg_${group.id}`,
      media: 'video',
    });
    await bobCall.frame(wsUrl, bob.token, { t: 'callAccept', callId: call.id });
    await caiCall.frame(wsUrl, cai.token, { t: 'callAccept', callId: call.id });

    const ways = await Promise.all(
      people.map((person) =>
        callApi<SfuWay>(baseUrl, 'POST', `/calls/${call.id}/sfu`, { token: person.token }),
      ),
    );
    expect(new Set(ways.map((way) => way.room)).size).toBe(1);
    const joined = await Promise.all(
      people.map(async (person, index) => {
        const { iceServers } = await callApi<{ iceServers: PageIceServer[] }>(
          baseUrl,
          'GET',
          '/calls/ice-servers',
          { token: person.token },
        );
        return devices[index]!.join({
          way: ways[index]!,
          iceServers,
          video: CAMERA,
          audio: 'tone',
        });
      }),
    );
    expect(joined).toEqual([null, null, null]);

    // Everyone receives the other two's audio and video, and bytes of both flow.
    const others = (person: ApiAccount) => people.filter((other) => other !== person);
    for (const [index, person] of people.entries()) {
      const at = devices[index]!;
      await expect
        .poll(() => flowing(at, others(person)), { timeout: 45_000 })
        .toEqual(allFlowing(others(person)));
      const track = { audio: true, video: true, audioTracks: 1, videoTracks: 1 };
      expect(await participants(at)).toEqual(
        Object.fromEntries(others(person).map(({ id }) => [id, track])),
      );
      expect((await at.seen()).connection).toEqual(['connected']);
    }

    // Cai's tone: the room's talk detection tells everyone (Cai too) that Cai talks, and
    // that Cai stopped once the tone is off.
    await caiCall.tone(true);
    for (const at of devices) {
      await expect.poll(async () => (await at.seen()).talking[cai.id]).toBe(true);
    }
    await caiCall.tone(false);
    for (const at of devices) {
      await expect.poll(async () => (await at.seen()).talking[cai.id]).toBe(false);
    }

    // Bob's camera off: the others are told, and Janus stops relaying it.
    await bobCall.setVideo(false);
    for (const at of [adaCall, caiCall]) {
      await expect.poll(async () => (await participants(at))[bob.id]?.video).toBe(false);
      expect((await participants(at))[bob.id]?.audio).toBe(true);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stopped = (await adaCall.received())[bob.id]?.video;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await adaCall.received())[bob.id]?.video).toBe(stopped);
    await bobCall.setVideo(true);
    await expect.poll(async () => (await participants(adaCall))[bob.id]?.video).toBe(true);
    await expect
      .poll(async () => (await adaCall.received())[bob.id]?.video)
      .toBeGreaterThan(stopped ?? 0);
    // And his microphone: off, then on again.
    await bobCall.setAudio(false);
    await expect.poll(async () => (await participants(caiCall))[bob.id]?.audio).toBe(false);
    await bobCall.setAudio(true);
    await expect.poll(async () => (await participants(caiCall))[bob.id]?.audio).toBe(true);

    // Ada's ICE restarts (as after a network change): what she sends and receives goes on.
    const beforeRestart = await bobCall.received();
    await adaCall.restartIce();
    await expect
      .poll(async () => (await bobCall.received())[ada.id]?.video)
      .toBeGreaterThan(beforeRestart[ada.id]?.video ?? 0);
    const adaBefore = await adaCall.received();
    await expect
      .poll(async () => (await adaCall.received())[bob.id]?.video)
      .toBeGreaterThan(adaBefore[bob.id]?.video ?? 0);

    // Someone without a token of the room's list is refused by Janus itself.
    const stranger = await device();
    const refused = await stranger.join({
      way: { ...ways[0]!, token: 'a-guessed-token', display: 'stranger' },
      iceServers: [],
      video: CAMERA,
      audio: 'microphone',
    });
    expect(refused?.code).toBe(433);
    // Nor may anyone watch without the private id of someone admitted.
    expect(await subscribeWithoutPrivateId(ways[0]!.room)).toBe(433);

    // Cai leaves: the others see it, and still receive each other.
    await caiCall.leave();
    for (const at of [adaCall, bobCall]) {
      await expect.poll(async () => (await at.seen()).left).toEqual([cai.id]);
      expect(Object.keys(await participants(at))).not.toContain(cai.id);
    }
    const before = await adaCall.received();
    await expect
      .poll(async () => (await adaCall.received())[bob.id]?.video)
      .toBeGreaterThan(before[bob.id]?.video ?? 0);

    // Ada leaves too: Bob, alone, sees her go and his call still stands.
    await adaCall.leave();
    await expect.poll(async () => (await bobCall.seen()).left).toEqual([cai.id, ada.id]);
    for (const at of devices) {
      const seen: PageSeen = await at.seen();
      expect(seen.failed, seen.log.join('\n')).toBeNull();
    }
    await bobCall.leave();
  });
});

/**
 * Tries to subscribe to a publisher of `room` the way a stranger who knew the room would,
 * with no private id: answers Janus's error code (433 when refused), or 0 if let in.
 */
async function subscribeWithoutPrivateId(room: number): Promise<number> {
  const url = JANUS_URL ?? '';
  const post = async (path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      body: JSON.stringify({ ...body, transaction: Math.random().toString(36).slice(2) }),
    });
    return (await response.json()) as {
      janus: string;
      data?: { id: number };
      plugindata?: { data: { participants?: { id: number }[]; error_code?: number } };
    };
  };
  const session = (await post('', { janus: 'create' })).data!.id;
  try {
    const handle = (
      await post(`/${session}`, { janus: 'attach', plugin: 'janus.plugin.videoroom' })
    ).data!.id;
    const listed = await post(`/${session}/${handle}`, {
      janus: 'message',
      body: { request: 'listparticipants', room },
    });
    const feed = listed.plugindata?.data.participants?.[0]?.id;
    expect(feed).toBeTypeOf('number');
    await post(`/${session}/${handle}`, {
      janus: 'message',
      body: { request: 'join', ptype: 'subscriber', room, streams: [{ feed }] },
    });
    for (let polls = 0; polls < 5; polls += 1) {
      const events = [
        (await (await fetch(`${url}/${session}?maxev=5`)).json()) as {
          janus: string;
          plugindata?: { data: { error_code?: number; videoroom?: string } };
        },
      ].flat();
      for (const event of events) {
        const data = event.plugindata?.data;
        if (data?.error_code) return data.error_code;
        if (data?.videoroom === 'attached') return 0;
      }
    }
    throw new Error('no answer to the subscription');
  } finally {
    await post(`/${session}`, { janus: 'destroy' });
  }
}
