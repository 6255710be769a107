import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.js';
import {
  launchBrowser,
  registerAccount,
  signIn,
  startServer,
  watchConsole,
  type ApiAccount,
  type RunningServer,
} from './harness.js';

/**
 * Device login in the browser, two devices at once: a signed-out desktop browser shows a
 * QR code; a signed-in phone scans it with its camera (Chromium's fake camera playing a
 * picture of that very code) and approves, and the desktop is signed in at once. Also by
 * the typed short code, refused, and run out.
 */

let server: RunningServer;
let browser: Browser;
let ada: ApiAccount;
const contexts: BrowserContext[] = [];
const browsers: Browser[] = [];
const consoleErrors: string[][] = [];

/** Where the desktop browser appears to be: an address the registries place in Britain. */
const DESKTOP_ADDRESS = '81.2.69.160';

beforeAll(async () => {
  // As behind a reverse proxy on this machine, so the desktop can come from another address.
  [server, browser] = await Promise.all([
    startServer({ TRUST_PROXY: 'loopback' }),
    launchBrowser(),
  ]);
  ada = await registerAccount(server.baseUrl, 'Ada');
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  for (const other of browsers) await other.close();
  await browser?.close();
  await server?.stop();
});

afterEach(() => {
  expect(consoleErrors.flat()).toEqual([]);
});

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { level: 1, name, exact: true });

/** A signed-out desktop browser on the QR sign-in page, reached from the sign-in page. */
async function desktop(baseUrl = server.baseUrl, on: Browser = browser): Promise<Page> {
  const context = await on.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    extraHTTPHeaders: { 'X-Forwarded-For': DESKTOP_ADDRESS },
  });
  contexts.push(context);
  await context.addInitScript(() => localStorage.setItem('currentLanguage', 'en_US'));
  const page = await context.newPage();
  consoleErrors.push(watchConsole(page));
  await page.goto(`${baseUrl}/`);
  await page.getByRole('link', { name: 'Sign in with a QR code' }).click();
  await heading(page, 'Sign in with a QR code').waitFor();
  await page.getByTestId('device-login-qr').waitFor();
  return page;
}

async function phone(account: ApiAccount, on: Browser = browser, baseUrl = server.baseUrl) {
  const { context, page, errors } = await signIn(on, baseUrl, account);
  contexts.push(context);
  consoleErrors.push(errors);
  return page;
}

const shownCode = async (page: Page) =>
  (await page.getByTestId('device-login-code').textContent())!.trim();

/** The two digits the desktop shows, which the phone picks among three. */
const shownNumber = async (page: Page) =>
  (await page.getByTestId('device-login-match').textContent())!.trim();

/** Picks a number on the phone, types the account password and approves. */
async function approve(mobile: Page, number: string, password = ada.password): Promise<void> {
  await mobile.getByRole('radio', { name: number, exact: true }).check();
  await mobile.getByLabel('Your account password', { exact: true }).fill(password);
  await mobile.getByRole('button', { name: 'Log in', exact: true }).click();
}

/**
 * A one-frame Y4M video of the QR code on screen, centred on white: what Chromium's fake
 * camera plays to the page asking for the camera.
 */
async function cameraFileOf(page: Page): Promise<string> {
  const shot = await page.getByTestId('device-login-qr').screenshot();
  const side = 360;
  const [width, height] = [640, 480];
  const qr = await sharp(shot).resize(side, side).greyscale().raw().toBuffer();
  const luma = Buffer.alloc(width * height, 235);
  const [left, top] = [(width - side) / 2, (height - side) / 2];
  for (let y = 0; y < side; y += 1) {
    qr.copy(luma, (top + y) * width + left, y * side, (y + 1) * side);
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const header = `YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`;
  const file = join(server.dataDir, `camera-${Date.now()}.y4m`);
  await writeFile(file, Buffer.concat([Buffer.from(header), Buffer.from('FRAME\n'), luma, chroma]));
  return file;
}

describe('device login', () => {
  it('signs a desktop in when the phone scans its QR code and approves', async () => {
    const pc = await desktop();
    await expectAccessible(pc, 'QR sign-in (en_US)');
    expect(await shownCode(pc)).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    await pc.getByText('Choose this number on your phone').waitFor();
    const number = await shownNumber(pc);
    expect(number).toMatch(/^\d{2}$/);

    // The phone's camera sees the desktop's screen.
    const camera = await launchBrowser([
      `--use-file-for-fake-video-capture=${await cameraFileOf(pc)}`,
    ]);
    browsers.push(camera);
    const mobile = await phone(ada, camera);
    await mobile.getByRole('link', { name: 'Me', exact: true }).click();
    await mobile.getByRole('link', { name: 'Scan to log in' }).click();
    await heading(mobile, 'Scan to log in').waitFor();
    await mobile.getByRole('heading', { name: 'Sign in on this device?' }).waitFor();
    await expect
      .poll(() => mobile.getByTestId('device-login-device').textContent())
      .toMatch(/Linux/);
    await mobile.getByText(DESKTOP_ADDRESS, { exact: true }).waitFor();
    expect(await mobile.getByTestId('device-login-place').textContent()).toBe('United Kingdom');
    // Three numbers to pick from, the desktop's among them; the password field below.
    await mobile.getByRole('group', { name: 'Tap the number shown on the other screen' }).waitFor();
    await expect.poll(() => mobile.getByRole('radio').count()).toBe(3);
    await mobile.getByRole('radio', { name: number, exact: true }).waitFor();
    await expectAccessible(mobile, 'approve a device (en_US)');
    // Neither a number nor the password yet: the phone says what is missing, sends nothing.
    await mobile.getByRole('button', { name: 'Log in', exact: true }).click();
    await mobile.getByText('Tap the number shown on the other screen first').waitFor();
    await mobile.getByText('Enter your password').waitFor();
    await approve(mobile, number);
    await mobile.getByText('Approved: Teltlk is now signed in on that device.').waitFor();

    // The desktop is signed in at once, as Ada.
    await heading(pc, 'Chats').waitFor();
    await pc.getByRole('link', { name: 'Me', exact: true }).click();
    await pc.getByText('Ada', { exact: true }).first().waitFor();

    // The phone's list of signed-in devices shows the desktop too (beside the phone and
    // the session the account was registered with).
    await mobile.getByRole('button', { name: 'Done' }).click();
    await mobile.goto(`${server.baseUrl}/#/pages/user/accountSecurity`);
    await mobile.getByText('Signed-in devices').waitFor();
    await expect.poll(() => mobile.locator('.tt-session').count()).toBe(3);
  });

  it('signs a desktop in by the short code typed on the phone', async () => {
    const pc = await desktop();
    const code = await shownCode(pc);
    const mobile = await phone(ada);
    await mobile.getByRole('link', { name: 'Me', exact: true }).click();
    await mobile.getByRole('link', { name: 'Log in on another device with a code' }).click();
    await heading(mobile, 'Log in with a code').waitFor();
    await mobile.getByRole('textbox', { name: 'Login code' }).fill('ZZZZ-9999');
    await mobile.getByRole('button', { name: 'Next' }).click();
    await mobile.getByText('This login code is not valid, please check it').waitFor();
    await mobile.getByRole('textbox', { name: 'Login code' }).fill(code.toLowerCase());
    await mobile.getByRole('button', { name: 'Next' }).click();
    // A wrong password is said beside the field, and the same ticket is approved after.
    await approve(mobile, await shownNumber(pc), 'Wr0ngPassword');
    await mobile.getByText('The password you entered is incorrect, Please re-enter it').waitFor();
    await approve(mobile, await shownNumber(pc));
    await heading(pc, 'Chats').waitFor();
  });

  it('refuses the sign-in when the phone picks another number than the desktop shows', async () => {
    const pc = await desktop();
    const code = await shownCode(pc);
    const number = await shownNumber(pc);
    const mobile = await phone(ada);
    await mobile.goto(`${server.baseUrl}/#/verification`);
    await mobile.getByRole('textbox', { name: 'Login code' }).fill(code);
    await mobile.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => mobile.getByRole('radio').count()).toBe(3);
    const others = await mobile
      .getByRole('radio')
      .evaluateAll(
        (radios, shown) =>
          radios.map((radio) => (radio as HTMLInputElement).value).filter((v) => v !== shown),
        number,
      );
    await approve(mobile, others[0]!);
    await mobile
      .getByText('That number does not match the one on the other device: the sign-in was refused')
      .waitFor();
    await pc.getByText('The sign-in was refused on your phone.').waitFor();
  });

  it('tells the desktop when the phone refuses', async () => {
    const pc = await desktop();
    const code = await shownCode(pc);
    const mobile = await phone(ada);
    await mobile.goto(`${server.baseUrl}/#/verification`);
    await mobile.getByRole('textbox', { name: 'Login code' }).fill(code);
    await mobile.getByRole('button', { name: 'Next' }).click();
    await mobile.getByRole('button', { name: 'Refuse' }).click();
    await mobile.getByText('Refused: that device was not signed in.').waitFor();
    await pc.getByText('The sign-in was refused on your phone.').waitFor();
    // A new code is one tap away.
    await pc.getByRole('button', { name: 'Show a new code' }).click();
    await pc.getByTestId('device-login-qr').waitFor();
    expect(await shownCode(pc)).not.toBe(code);
    await heading(pc, 'Sign in with a QR code').waitFor();
  });

  it('renews a code that runs out, and the phone is told the old one expired', async () => {
    // A server whose codes last 3 seconds.
    const quick = await startServer({ DEVICE_LOGIN_TTL_SECONDS: '3' });
    const pages: Page[] = [];
    try {
      const bob = await registerAccount(quick.baseUrl, 'Bob');
      const mobile = await phone(bob, browser, quick.baseUrl);
      pages.push(mobile);
      await mobile.goto(`${quick.baseUrl}/#/verification`);
      const pc = await desktop(quick.baseUrl);
      pages.push(pc);
      const first = await shownCode(pc);
      const firstNumber = await shownNumber(pc);
      await mobile.getByRole('textbox', { name: 'Login code' }).fill(first);
      await mobile.getByRole('button', { name: 'Next' }).click();
      await mobile.getByRole('heading', { name: 'Sign in on this device?' }).waitFor();
      // The desktop shows a new code once the first runs out...
      await expect.poll(() => shownCode(pc)).not.toBe(first);
      // ...and approving the old one on the phone is refused.
      await approve(mobile, firstNumber, bob.password);
      await mobile
        .getByText('This login code has expired, please show a new one on the other device')
        .waitFor();
      await heading(pc, 'Sign in with a QR code').waitFor();
    } finally {
      // The desktop asks for a new code every 3 seconds: gone before the server, which
      // answers 503 to what comes in while it stops.
      for (const page of pages) await page.context().close();
      await quick.stop();
    }
  });
});
