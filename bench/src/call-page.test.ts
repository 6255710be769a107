import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselineCall, installCallProbe, KEEP_NAMES_SHIM, type ProbedWindow } from './call-page.js';
import { CHROMIUM_ARGS, checkRelayed, chromiumPath } from './call-setup.js';
import { type Coturn, startCoturn } from './coturn.js';

/**
 * The call benchmark's parts in Chromium: the probe the chat pages get, and the baseline
 * through a coturn of its own. Skipped without coturn or Chromium.
 */
const ready =
  spawnSync('turnserver', ['--version']).error === undefined && existsSync(chromiumPath());

/** A page on a loopback origin (a secure context, as the app's), answered by the test. */
async function blankPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript({ content: KEEP_NAMES_SHIM });
  await context.addInitScript(installCallProbe);
  const page = await context.newPage();
  const url = 'http://127.0.0.1:9/call-page-test';
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html><body><button data-call-action="accept">Accept</button></body></html>',
    }),
  );
  await page.goto(url);
  return page;
}

describe.runIf(ready)('the call benchmark in Chromium', () => {
  let coturn: Coturn;
  let browser: Browser;

  beforeAll(async () => {
    coturn = await startCoturn();
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await coturn?.stop();
  });

  it('times two connections through the TURN server alone, and sees when they are not', async () => {
    const page = await blankPage(browser);
    // TURN REST credentials, made as the server makes them.
    const username = `${Math.floor(Date.now() / 1000) + 600}:call-page-test`;
    const credential = createHmac('sha1', coturn.secret).update(username).digest('base64');
    const relay: RTCConfiguration = {
      iceServers: [{ urls: [coturn.url], username, credential }],
      iceTransportPolicy: 'relay',
    };
    const run = await page.evaluate(baselineCall, {
      configurations: [relay, relay],
      timeoutMs: 15_000,
    });
    expect(run.candidateTypes).toEqual(['relay', 'relay']);
    expect(() => checkRelayed('baseline', run.candidateTypes)).not.toThrow();
    expect(run.sidesMs).toHaveLength(2);
    expect(run.ms).toBe(Math.max(...run.sidesMs));
    expect(run.connectedMs).toBeGreaterThan(0);
    expect(run.connectedMs).toBeLessThanOrEqual(run.ms);

    // Without TURN the same connections go directly, which the check refuses.
    const direct = await page.evaluate(baselineCall, {
      configurations: [{}, {}],
      timeoutMs: 15_000,
    });
    expect(direct.candidateTypes).toContain('host');
    expect(() => checkRelayed('baseline', direct.candidateTypes)).toThrow(
      'media not through TURN alone',
    );
    expect(() => checkRelayed('caller', [])).toThrow('no connected RTCPeerConnection');
  });

  it("notes the accept click, the first frame of a remote video and the page's connections", async () => {
    const page = await blankPage(browser);
    const probe = () =>
      page.evaluate(() => {
        const { acceptedAt, firstFrameAt, connections, madeAt } = (
          window as unknown as ProbedWindow
        ).callProbe;
        return { acceptedAt, firstFrameAt, connections: connections.length, made: madeAt.length };
      });
    await page.evaluate(() => (window as unknown as ProbedWindow).callProbe.arm());
    await page.locator('[data-call-action="accept"]').click();
    const accepted = await probe();
    expect(accepted.acceptedAt).toBeGreaterThan(0);
    expect(accepted.firstFrameAt).toBeNull();

    // A video that is not a call's remote one is not watched; one that is, is.
    await page.evaluate(async () => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: true });
      const own = document.createElement('video');
      own.muted = true;
      own.srcObject = stream;
      document.body.append(own);
      await own.play();
      await new Promise((resolve) => own.requestVideoFrameCallback(resolve));
      new RTCPeerConnection().close();
    });
    expect(await probe()).toMatchObject({ firstFrameAt: null, connections: 1, made: 1 });
    await page.evaluate(() => {
      const own = document.querySelector('video')!;
      const remote = document.createElement('video');
      remote.muted = true;
      remote.dataset.callRemote = 'someone';
      remote.srcObject = own.srcObject;
      document.body.append(remote);
      void remote.play();
    });
    await expect
      .poll(async () => (await probe()).firstFrameAt)
      .toBeGreaterThanOrEqual(accepted.acceptedAt!);

    // A new run forgets the last one's times and connections.
    await page.evaluate(() => (window as unknown as ProbedWindow).callProbe.arm());
    expect(await probe()).toEqual({
      acceptedAt: null,
      firstFrameAt: null,
      connections: 0,
      made: 0,
    });
  });
});
