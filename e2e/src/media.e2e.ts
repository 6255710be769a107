import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openChat, photo, type ApiAccount } from './harness.js';
import { expectAccessible } from './axe.js';
import { browserSuite } from './suite.js';

/**
 * Photos and files in two browsers: picked, uploaded (the tus protocol) with progress,
 * sent, shown to the other person from short-lived signed addresses, opened in the
 * viewer, downloaded; a file over the limit refused at once; an upload cut off by a
 * reload going on where it stopped.
 */

const suite = browserSuite({ MEDIA_FILE_MAX_MB: '3' });
const signedIn = (account: ApiAccount) => suite.signedIn(account);

/** What an address of the page answers, fetched inside the page (same origin, no session). */
function fetched(page: Page, href: string) {
  return page.evaluate(async (url) => {
    const response = await fetch(url);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      size: bytes.length,
      text: new TextDecoder().decode(bytes.slice(0, 64)),
    };
  }, href);
}

describe('photos and files', () => {
  it('sends photos and a file, which the other person opens, zooms and downloads', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const a = await signedIn(ada);
    const b = await signedIn(bob);

    await openChat(a, /Bob/);
    // The photo button opens the device's file chooser, for photos only.
    await a.getByRole('button', { name: 'More to send' }).click();
    const [chooser] = await Promise.all([
      a.waitForEvent('filechooser'),
      a.getByRole('button', { name: 'Photos', exact: true }).click(),
    ]);
    expect(chooser.isMultiple()).toBe(true);
    expect(await chooser.element().getAttribute('accept')).toBe(
      'image/jpeg,image/png,image/webp,image/gif',
    );
    await a
      .getByTestId('pick-image')
      .setInputFiles([
        await photo(a, 1200, 800, 'red'),
        await photo(a, 600, 900, 'blue'),
        await photo(a, 900, 900, 'green'),
      ]);
    const aLog = a.getByRole('log');
    // Uploads go one at a time: on a busy machine three take a while.
    await expect.poll(() => aLog.getByRole('button', { name: 'Open photo' }).count()).toBe(3);
    await a.getByTestId('pick-file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Meeting notes: Thursday at 3'),
    });
    await aLog.getByRole('link', { name: 'Download notes.txt' }).waitFor();

    // Bob sees the last one in his list, then the photos from their thumbnails.
    await b.goto(`${suite.server.baseUrl}/#/pages/home/home`);
    await b.getByText('[File] notes.txt').waitFor();
    await b.getByRole('link', { name: /Ada/ }).first().click();
    const log = b.getByRole('log');
    const opens = log.getByRole('button', { name: 'Open photo' });
    await expect.poll(() => opens.count()).toBe(3);
    const thumb = opens.first().locator('img');
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    expect(await thumb.getAttribute('src')).toMatch(/^\/api\/v1\/media\/[0-9a-z]{20}\/thumb\?e=/);
    await expectAccessible(b, 'a chat with photos and a file');

    // The viewer: zoom with the wheel, go on with the arrow key, save, close.
    await opens.first().click();
    await b.getByRole('dialog', { name: 'Photo 1 of 3' }).waitFor();
    const viewer = b.getByRole('dialog');
    const shown = viewer.locator('img');
    await shown.hover();
    await b.mouse.wheel(0, -300);
    await expect.poll(() => shown.evaluate((img) => img.style.transform)).toMatch(/scale\(1\.25\)/);
    await b.keyboard.press('ArrowRight');
    await b.getByRole('dialog', { name: 'Photo 2 of 3' }).waitFor();
    await expectAccessible(b, 'the photo viewer');
    const save = viewer.getByRole('link', { name: 'Save' });
    const original = await fetched(b, (await save.getAttribute('href'))!);
    expect(original).toMatchObject({ status: 200, type: 'image/jpeg' });
    await b.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });

    // The file, with its name and size; it downloads as it was sent.
    const file = log.getByRole('link', { name: 'Download notes.txt' });
    await file.getByText('28 byte').waitFor();
    const download = await fetched(b, (await file.getAttribute('href'))!);
    expect(download).toMatchObject({ status: 200, size: 28, text: 'Meeting notes: Thursday at 3' });
  });

  it('refuses a file over the limit at once, and resumes an upload cut off by a reload', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const a = await signedIn(ada);
    await openChat(a, /Bob/);

    await a.getByTestId('pick-file').setInputFiles({
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(4 * 1024 * 1024, 1),
    });
    await a.getByText('This file is too large: at most 3 MB').waitFor();

    // The first chunk goes with the request that creates the upload; then the network
    // fails the upload's next requests, so it stays at 40% (a chunk is 1 MB of 2.5).
    const bytes = Buffer.alloc(2.5 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31) % 256;
    let creations = 0;
    a.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/v1/uploads')) creations += 1;
    });
    await a.route('**/api/v1/uploads/*', (route) =>
      route.request().method() === 'PATCH' ? route.abort() : route.continue(),
    );
    await a.getByTestId('pick-file').setInputFiles({
      name: 'report.bin',
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    await a
      .getByRole('log')
      .getByText(/Uploading 40%/)
      .waitFor();

    expect(creations).toBeGreaterThan(0);

    // A reload, with the network back: the upload goes on from 40%, never begins again.
    // (Before it, a loaded machine may see the client retry a creation that timed out.)
    creations = 0;
    await a.unroute('**/api/v1/uploads/*');
    await a.reload();
    const log = a.getByRole('log');
    await log.getByText('report.bin').waitFor();
    await expect.poll(() => log.getByRole('link', { name: 'Download report.bin' }).count()).toBe(1);
    expect(creations).toBe(0);

    const b = await signedIn(bob);
    await b.getByText('[File] report.bin').waitFor();
    await b.getByRole('link', { name: /Ada/ }).first().click();
    // The message first, then its link once the file's signed address is there.
    const bLog = b.getByRole('log');
    await bLog.getByText('report.bin').waitFor();
    const file = bLog.getByRole('link', { name: 'Download report.bin' });
    const download = await fetched(b, (await file.getAttribute('href'))!);
    expect(download.size).toBe(bytes.length);
  });

  it('records a voice by holding the button and sends a video, which the other person plays at 1.5x', async () => {
    const [ada, bob] = await suite.accounts('Ada', 'Bob');
    const a = await signedIn(ada);
    await a.context().grantPermissions(['microphone'], { origin: suite.server.baseUrl });
    await openChat(a, /Bob/);

    // Hold to talk for about two seconds, then let go.
    await a.getByRole('button', { name: 'More to send' }).click();
    await expectAccessible(a, 'the composer with its "more" panel');
    await a.getByRole('button', { name: 'More to send' }).click();
    await a.getByRole('button', { name: 'Send a voice message' }).click();
    await expectAccessible(a, 'the composer in voice mode');
    const hold = a.getByRole('button', { name: 'Hold to talk' });
    const box = (await hold.boundingBox())!;
    await a.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await a.mouse.down();
    // Held until the recording has run two seconds.
    await a
      .getByRole('status')
      .getByText(/Recording [2-9] s/)
      .waitFor();
    await a.mouse.up();
    const log = a.getByRole('log');
    await log.getByRole('button', { name: /^Play voice message, 0:0[1-4]$/ }).waitFor();

    // Held again but slid up before letting go: nothing is sent.
    await a.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await a.mouse.down();
    await a
      .getByRole('status')
      .getByText(/Recording/)
      .waitFor();
    await a.mouse.move(box.x + box.width / 2, box.y - 120);
    await a.getByText('Release to cancel').waitFor();
    await a.mouse.up();
    await a.getByRole('button', { name: 'Type a message' }).click();

    // A video made in the browser: a second of a moving square.
    const clip = await a.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 180;
      const context = canvas.getContext('2d')!;
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      for (let frame = 0; frame < 30; frame += 1) {
        context.fillStyle = '#135';
        context.fillRect(0, 0, 320, 180);
        context.fillStyle = '#fc0';
        context.fillRect(frame * 8, 60, 60, 60);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      recorder.stop();
      await stopped;
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    });
    await a.getByTestId('pick-video').setInputFiles({
      name: 'clip.webm',
      mimeType: 'video/webm',
      buffer: Buffer.from(clip, 'base64'),
    });
    await log.getByRole('button', { name: /^Play video, 0:0\d$/ }).waitFor();
    await expect.poll(() => log.locator('.tt-upload').count()).toBe(0);

    const b = await signedIn(bob);
    await b.getByText('[Video]').waitFor();
    await b.getByRole('link', { name: /Ada/ }).first().click();
    const bLog = b.getByRole('log');
    const voice = bLog.getByRole('button', { name: /^Play voice message/ });
    await voice.click();
    await expect
      .poll(() => bLog.locator('audio').evaluate((audio: HTMLAudioElement) => audio.currentTime))
      .toBeGreaterThan(0);
    const play = bLog.getByRole('button', { name: /^Play video/ });
    await expect
      .poll(() => play.evaluate((button) => getComputedStyle(button).backgroundImage))
      .toMatch(/\/api\/v1\/media\/[0-9a-z]{20}\/thumb/);
    await expectAccessible(b, 'a chat with a voice message and a video');
    await play.click();
    await bLog.getByRole('combobox', { name: 'Speed' }).selectOption('1.5');
    const video = bLog.locator('video');
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.playbackRate))
      .toBe(1.5);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThan(0);
  });
});
