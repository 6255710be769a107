import type { Page } from 'playwright-core';
import { callApi } from '@teltlk/test-kit';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import { createGroup, openChat, type ApiAccount } from './harness.js';
import { browserSuite } from './suite.js';

/**
 * Calls in Chromium with a fake camera and microphone: one to one through coturn alone
 * (the server hands out `relay` as the ICE policy), every device of the callee ringing,
 * each way a call ends leaving its record in the chat, and a group call through Janus.
 */

const TURN_URL = process.env.TEST_TURN_URL;
const TURN_SECRET = process.env.TEST_TURN_SECRET;
const JANUS_URL = process.env.TEST_JANUS_URL;
const JANUS_KEY = process.env.TEST_JANUS_ROOM_ADMIN_KEY;

const suite = browserSuite({
  ...(TURN_URL && TURN_SECRET ? { TURN_URLS: TURN_URL, TURN_SECRET, TURN_RELAY_ONLY: 'true' } : {}),
  ...(JANUS_URL && JANUS_KEY ? { JANUS_URL, JANUS_ROOM_ADMIN_KEY: JANUS_KEY } : {}),
});

/** What one page's peer connections carry, read from getStats in the page. */
interface MediaFlow {
  /** Video bytes received, per remote stream (inbound-rtp of kind video). */
  videoIn: number[];
  /** Bytes sent over all outbound-rtp. */
  bytesOut: number;
  /** The local candidate types of the selected pairs ("relay" through TURN). */
  localTypes: string[];
}

/**
 * The page's peer connections are the app's; the test reaches them by recording every
 * RTCPeerConnection the page makes, before the app's script runs.
 */
async function recordPeerConnections(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const made: RTCPeerConnection[] = [];
    (window as unknown as { __peers: RTCPeerConnection[] }).__peers = made;
    const Original = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends Original {
      constructor(config?: RTCConfiguration) {
        super(config);
        made.push(this);
      }
    };
  });
  await page.reload();
}

function flowOf(page: Page): Promise<MediaFlow> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
    const flow = { videoIn: [] as number[], bytesOut: 0, localTypes: [] as string[] };
    for (const peer of peers) {
      if (peer.connectionState === 'closed') continue;
      const stats = await peer.getStats();
      const byId = new Map<string, Record<string, unknown>>();
      stats.forEach((entry: Record<string, unknown>) => byId.set(String(entry.id), entry));
      for (const entry of byId.values()) {
        if (entry.type === 'inbound-rtp' && entry.kind === 'video') {
          flow.videoIn.push(Number(entry.bytesReceived ?? 0));
        }
        if (entry.type === 'outbound-rtp') flow.bytesOut += Number(entry.bytesSent ?? 0);
        if (entry.type === 'candidate-pair' && entry.nominated && entry.state === 'succeeded') {
          const local = byId.get(String(entry.localCandidateId));
          flow.localTypes.push(String(local?.candidateType));
        }
      }
    }
    return flow;
  });
}

const action = (page: Page, name: string) => page.locator(`[data-call-action="${name}"]`);
const callButton = (page: Page, media: 'audio' | 'video') =>
  page.locator(`[data-call-start="${media}"]`);

/** The chat's log, where the call's record shows once it ended. */
const log = (page: Page) => page.getByRole('log');

describe.runIf(TURN_URL && TURN_SECRET)('one-to-one calls', () => {
  it('carries a video call through TURN both ways, and leaves its record in the chat', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const a = await suite.signedIn(ada);
    const b = await suite.signedIn(bob);
    await recordPeerConnections(a);
    await recordPeerConnections(b);
    await openChat(a, /Bob/);

    await callButton(a, 'video').click();
    // Bob's phone rings wherever he is in the app.
    const incoming = b.getByRole('alertdialog');
    await incoming.getByText('Incoming video call').waitFor();
    await incoming.getByRole('heading', { name: 'Ada' }).waitFor();
    await action(b, 'accept').click();

    // Both pages show the other's video, and bytes flow each way through the relay.
    await a.locator(`video[data-call-remote="${bob.id}"]`).waitFor();
    await b.locator(`video[data-call-remote="${ada.id}"]`).waitFor();
    for (const page of [a, b]) {
      await expect
        .poll(async () => {
          const flow = await flowOf(page);
          return flow.videoIn.some((bytes) => bytes > 10_000) && flow.bytesOut > 10_000;
        })
        .toBe(true);
      const flow = await flowOf(page);
      expect(flow.localTypes.length).toBeGreaterThan(0);
      expect(flow.localTypes.every((type) => type === 'relay')).toBe(true);
    }
    // The duration counts, the quality shows.
    await a.getByText(/^0:0\d$/).waitFor();
    await a.getByText(/connection$/).waitFor();

    // The network changes: ICE starts again, and media keeps flowing without a new call.
    const before = (await flowOf(b)).videoIn.reduce((sum, bytes) => sum + bytes, 0);
    await a.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect
      .poll(async () => (await flowOf(b)).videoIn.reduce((sum, bytes) => sum + bytes, 0))
      .toBeGreaterThan(before + 20_000);
    expect(await a.getByRole('dialog').count()).toBe(1);

    // Muting says so on the button; minimizing keeps the call in a small window.
    await action(a, 'mute').click();
    expect(await action(a, 'mute').getAttribute('aria-pressed')).toBe('true');
    await a.getByRole('button', { name: 'Minimize the call' }).click();
    await a.getByRole('button', { name: /^Back to the call/ }).click();

    await action(a, 'hangup').click();
    await b
      .getByRole('status')
      .getByText(/Call ended/)
      .waitFor();
    await expect.poll(() => b.getByRole('dialog').count()).toBe(0);
    await log(a)
      .getByText(/^Video call · 0:\d\d$/)
      .waitFor();
  });

  it('rings every device of the callee, and the others stop when one answers', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const a = await suite.signedIn(ada);
    const phone = await suite.signedIn(bob);
    const laptop = await suite.signedIn(bob);
    await openChat(a, /Bob/);

    await callButton(a, 'audio').click();
    for (const device of [phone, laptop]) {
      await device.getByRole('alertdialog').getByText('Incoming voice call').waitFor();
    }
    await action(phone, 'accept').click();
    await laptop.getByText('Answered on another device').waitFor();
    await expect.poll(() => laptop.getByRole('alertdialog').count()).toBe(0);
    await phone.getByRole('dialog').waitFor();
    await action(phone, 'hangup').click();
    await log(a)
      .getByText(/^Voice call · 0:\d\d$/)
      .waitFor();
  });

  it('leaves a record for a declined, a cancelled and a busy call', async () => {
    // Cai is Ada's friend too (accounts befriends the first with each).
    const [ada, bob, cai] = await suite.accounts('Ada', 'Bob', 'Cai');
    const a = await suite.signedIn(ada);
    const b = await suite.signedIn(bob);
    const c = await suite.signedIn(cai);
    await openChat(a, /Bob/);

    // Declined.
    await callButton(a, 'audio').click();
    await action(b, 'decline').click();
    await a
      .getByRole('status')
      .getByText(/Call declined/)
      .waitFor();
    await log(a).getByText('Call declined').waitFor();

    // Cancelled by the caller before an answer.
    await callButton(a, 'video').click();
    await b.getByRole('alertdialog').waitFor();
    await action(a, 'cancel').click();
    await expect.poll(() => b.getByRole('alertdialog').count()).toBe(0);
    await log(a).getByText('Cancelled').waitFor();

    // Busy: Bob is in a call with Ada when Cai calls Ada.
    await callButton(a, 'audio').click();
    await action(b, 'accept').click();
    await a.getByRole('dialog').waitFor();
    await openChat(c, /Ada/);
    await callButton(c, 'audio').click();
    await c
      .getByRole('status')
      .getByText(/The person is in another call/)
      .waitFor();
    await log(c).getByText('Busy').waitFor();
    await action(a, 'hangup').click();
  });
});

describe.runIf(TURN_URL && TURN_SECRET)('calls in Chinese, and unanswered', () => {
  it('shows the screens in Simplified Chinese, accessible to a screen reader', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const a = await suite.signedIn(ada);
    const b = await suite.signedIn(bob);
    for (const page of [a, b]) {
      await page.evaluate(() => localStorage.setItem('currentLanguage', 'zh_CN'));
      await page.reload();
      await page.getByRole('heading', { level: 1, name: '消息' }).waitFor();
    }
    await a.goto(`${suite.server.baseUrl}/#/pages/contacts/contacts`);
    await a.getByRole('link', { name: /Bob/ }).first().click();
    await a.getByRole('button', { name: '发消息' }).click();
    await a.getByRole('button', { name: '视频通话' }).click();
    const incoming = b.getByRole('alertdialog');
    await incoming.getByText('邀请你视频通话').waitFor();
    await expectAccessible(b, 'incoming call (zh_CN)');
    await incoming.getByRole('button', { name: '视频接听' }).click();
    const call = a.getByRole('dialog');
    await call.getByRole('button', { name: '静音' }).waitFor();
    await call.getByRole('button', { name: '挂断' }).waitFor();
    await expectAccessible(a, 'in a call (zh_CN)');
    await call.getByRole('button', { name: '挂断' }).click();
    await b
      .getByRole('status')
      .getByText(/通话已结束/)
      .waitFor();
  });

  it('ends a call no one answers as missed, with its record on both sides', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const a = await suite.signedIn(ada);
    const b = await suite.signedIn(bob);
    await openChat(a, /Bob/);
    await callButton(a, 'audio').click();
    await b.getByRole('alertdialog').waitFor();
    // Sixty seconds of ringing, then the server ends it.
    await a
      .getByRole('status')
      .getByText(/No answer/)
      .waitFor({ timeout: 90_000 });
    await expect.poll(() => b.getByRole('alertdialog').count()).toBe(0);
    await log(a).getByText('No answer').waitFor();
    await openChat(b, /Ada/);
    await log(b).getByText('Missed voice call').waitFor();
  });
});

/** How many remote video streams a page receives with bytes flowing. */
async function remoteVideos(page: Page): Promise<number> {
  const flow = await flowOf(page);
  return flow.videoIn.filter((bytes) => bytes > 5_000).length;
}

describe.runIf(JANUS_URL && JANUS_KEY)('group calls through Janus', () => {
  it('gives each of three people the other two, takes a late joiner from the banner, and refuses a non-member', async () => {
    const [ada, bob, cai, eve]: ApiAccount[] = await suite.accounts('Ada', 'Bob', 'Cai', 'Eve');
    await createGroup(suite.server.baseUrl, ada, 'Calling group', [bob, cai]);
    const pages = [];
    for (const person of [ada, bob, cai]) {
      const page = await suite.signedIn(person);
      await recordPeerConnections(page);
      pages.push(page);
    }
    const [a, b, c] = pages as [Page, Page, Page];
    await a.goto(`${suite.server.baseUrl}/#/pages/home/home`);
    await a
      .getByRole('link', { name: /Calling group/ })
      .first()
      .click();
    await callButton(a, 'video').click();
    for (const page of [b, c]) {
      await page
        .getByRole('alertdialog')
        .getByText(/invites you to a group video call/)
        .waitFor();
    }
    await action(b, 'accept').click();
    // Cai declines, then changes his mind: he joins the running call from the chat's banner.
    await action(c, 'decline').click();
    await expect.poll(() => c.getByRole('alertdialog').count()).toBe(0);
    await c.goto(`${suite.server.baseUrl}/#/pages/home/home`);
    await c
      .getByRole('link', { name: /Calling group/ })
      .first()
      .click();
    await c.getByText('A group call is in progress').waitFor();
    await action(c, 'join').click();
    for (const page of pages) {
      await expect.poll(() => remoteVideos(page)).toBe(2);
      await expect.poll(() => page.locator('.tt-call-tile').count()).toBe(3);
    }

    // Eve is no member: the call is not hers to learn of, nor its room.
    const call = await callApi<{ calls: { id: string }[] }>(
      suite.server.baseUrl,
      'GET',
      '/calls/current',
      { token: ada.token },
    );
    const id = call.calls[0]?.id ?? '';
    await expect(
      callApi(suite.server.baseUrl, 'POST', `/calls/${id}/sfu`, { token: eve.token }),
    ).rejects.toThrow(/: 404 /);

    // Cai leaves: the others see two tiles.
    await action(c, 'hangup').click();
    for (const page of [a, b]) {
      await expect.poll(() => page.locator('.tt-call-tile').count()).toBe(2);
    }
    await action(a, 'hangup').click();
    await action(b, 'hangup').click();
  });
});
