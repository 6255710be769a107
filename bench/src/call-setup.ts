import { APP_PAGES, type IceServersResult, singleConversationId } from '@teltlk/protocol';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type Account, befriend, call, registerAccounts } from './accounts.js';
import {
  type BaselineRun,
  baselineCall,
  installCallProbe,
  KEEP_NAMES_SHIM,
  type ProbedWindow,
} from './call-page.js';
import { startCoturn } from './coturn.js';
import { type ServerProcess, startTeltlk } from './server-process.js';
import { median } from './stats.js';

/**
 * Call set-up (PERFORMANCE.md): from the callee's accept to the first remote video frame
 * on both sides, a one-to-one video call in the web app against two bare
 * RTCPeerConnections in one page, both through the same TURN server and relay only.
 */

export interface CallSetupOptions {
  /** Measured runs of each, alternating. */
  runs: number;
  /** Runs of each before measuring (the first call loads the call screens' code). */
  warmup: number;
}

export const CALL_SETUP_DEFAULTS: CallSetupOptions = { runs: 5, warmup: 1 };

/** Times from the start (the accept click; the baseline's createOffer), in ms. */
export interface CallSetupRun {
  /** The later of the two sides' first remote frame. */
  ms: number;
  /** The caller's and the callee's first frame (for the baseline: offerer, answerer). */
  sidesMs: number[];
  /** Both sides have made their RTCPeerConnection (the baseline's exist before it starts: 0). */
  madeMs: number;
  /** Both sides' connections are connected (ICE and DTLS). */
  connectedMs: number;
}

export interface CallSetup {
  /** Medians of the measured runs. */
  oursMs: number;
  baselineMs: number;
  ratio: number;
  /** Medians of the phases: the connections made, then connected. */
  ourPhases: { madeMs: number; connectedMs: number };
  baselineConnectedMs: number;
  ours: CallSetupRun[];
  baseline: CallSetupRun[];
}

/** Chromium with a fake camera and microphone, allowed without asking. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

/** The system Chromium, or the one CHROMIUM_PATH (or CHROME_PATH, as the other benchmarks) names. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
}

/** How long one call may take to show a frame, or to end. */
const STEP_TIMEOUT_MS = 20_000;
/** A person answers a moment after the ringing starts, not the instant it shows. */
const RING_MS = 1_000;
const BASELINE_PATH = '/call-setup-baseline';

/** The only candidates a relay-only call may send through. */
export function checkRelayed(who: string, types: readonly string[]): void {
  if (types.length === 0) throw new Error(`${who}: no connected RTCPeerConnection`);
  if (types.some((type) => type !== 'relay'))
    throw new Error(`${who}: media not through TURN alone (candidates ${types.join(', ')})`);
}

function probeOf(page: Page) {
  return {
    arm: () => page.evaluate(() => (window as unknown as ProbedWindow).callProbe.arm()),
    read: () =>
      page.evaluate(() => {
        const { acceptedAt, firstFrameAt, madeAt, connectedAt } = (
          window as unknown as ProbedWindow
        ).callProbe;
        return {
          acceptedAt,
          firstFrameAt,
          madeAt: Math.min(...madeAt),
          connectedAt: Math.max(...connectedAt),
        };
      }),
    describe: () => page.evaluate(() => (window as unknown as ProbedWindow).callProbe.describe()),
    candidateTypes: () =>
      page.evaluate(() => (window as unknown as ProbedWindow).callProbe.candidateTypes()),
    firstFrame: () =>
      page.waitForFunction(
        () => (window as unknown as ProbedWindow).callProbe.firstFrameAt !== null,
        undefined,
        { timeout: STEP_TIMEOUT_MS },
      ),
    /** The call is over in the page: no remote video, every connection closed. */
    ended: () =>
      page.waitForFunction(
        () =>
          document.querySelector('video[data-call-remote]') === null &&
          (window as unknown as ProbedWindow).callProbe.connections.every(
            (connection) => connection.connectionState === 'closed',
          ),
        undefined,
        { timeout: STEP_TIMEOUT_MS },
      ),
  };
}

async function probedContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  await context.addInitScript({ content: KEEP_NAMES_SHIM });
  await context.addInitScript(installCallProbe);
  return context;
}

/** The ICE servers the server gives an account: TURN alone, from the coturn of this run. */
async function iceServersOf(baseUrl: string, account: Account): Promise<RTCConfiguration> {
  const ice = await call<IceServersResult>(baseUrl, 'GET', '/calls/ice-servers', {
    token: account.token,
  });
  if (ice.iceTransportPolicy !== 'relay' || !ice.iceServers.some((server) => server.credential))
    throw new Error(`the server gives no relay-only TURN: ${JSON.stringify(ice)}`);
  return { iceServers: ice.iceServers, iceTransportPolicy: ice.iceTransportPolicy };
}

/** The baseline's page: empty, on the server's origin (a secure context, as the app is). */
async function openBaseline(browser: Browser, server: ServerProcess, accounts: Account[]) {
  const configurations = await Promise.all(
    accounts.map((account) => iceServersOf(server.baseUrl, account)),
  );
  const page = await (await probedContext(browser)).newPage();
  await page.route(`${server.baseUrl}${BASELINE_PATH}`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html><head><title>call set-up baseline</title></head><body></body></html>',
    }),
  );
  await page.goto(`${server.baseUrl}${BASELINE_PATH}`);
  return async (): Promise<CallSetupRun> => {
    const run: BaselineRun = await page.evaluate(baselineCall, {
      configurations,
      timeoutMs: STEP_TIMEOUT_MS,
    });
    checkRelayed('baseline', run.candidateTypes);
    return { ms: run.ms, sidesMs: run.sidesMs, madeMs: 0, connectedMs: run.connectedMs };
  };
}

/** Each friend signed in to the web app in a context of its own, at their chat. */
async function openChats(
  browser: Browser,
  server: ServerProcess,
  caller: Account,
  callee: Account,
) {
  const chat = `${server.baseUrl}/#${APP_PAGES.chat}?conversationId=${singleConversationId(
    caller.userId,
    callee.userId,
  )}`;
  // What went wrong in the pages, for the message of a run that fails.
  const said: string[] = [];
  const [callerPage, calleePage] = await Promise.all(
    [caller, callee].map(async (account, index) => {
      const who = index === 0 ? 'caller' : 'callee';
      const context = await probedContext(browser);
      await context.addInitScript(
        (token) => localStorage.setItem('teltlk.token', token),
        account.token,
      );
      const page = await context.newPage();
      page.on('pageerror', (error) => said.push(`${who}: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') said.push(`${who}: ${message.text()}`);
      });
      await page.goto(chat);
      return page;
    }),
  );
  const pages = { caller: callerPage!, callee: calleePage! };
  const failed = (error: unknown) =>
    new Error(
      (error as Error).message +
        (said.length > 0 ? `\nthe pages said:\n  ${said.slice(-8).join('\n  ')}` : ''),
    );
  try {
    await pages.caller.locator('[data-call-start="video"]').waitFor();
  } catch (error) {
    throw failed(
      new Error(`the chat page shows no video call button: ${(error as Error).message}`),
    );
  }
  const probes = { caller: probeOf(pages.caller), callee: probeOf(pages.callee) };

  /** Neither friend is in a call, as the server and both pages see it. */
  const ended = async () => {
    await Promise.all([probes.caller.ended(), probes.callee.ended()]);
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (const account of [caller, callee]) {
      for (;;) {
        const { calls } = await call<{ calls: unknown[] }>(
          server.baseUrl,
          'GET',
          '/calls/current',
          {
            token: account.token,
          },
        );
        if (calls.length === 0) break;
        if (Date.now() > deadline) throw new Error('the call did not end on the server');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };

  const run = async (): Promise<CallSetupRun> => {
    await Promise.all([probes.caller.arm(), probes.callee.arm()]);
    await pages.caller.locator('[data-call-start="video"]').click();
    const accept = pages.callee.locator('[data-call-action="accept"]');
    await accept.waitFor();
    await pages.callee.waitForTimeout(RING_MS);
    await accept.click();
    try {
      await Promise.all([probes.caller.firstFrame(), probes.callee.firstFrame()]);
    } catch {
      const [callerState, calleeState] = await Promise.all([
        probes.caller.describe(),
        probes.callee.describe(),
      ]);
      throw new Error(
        `no remote video frame on both sides within ${STEP_TIMEOUT_MS / 1000} s of the accept\n` +
          `  caller: ${callerState}\n  callee: ${calleeState}`,
      );
    }
    const [callerSeen, calleeSeen] = await Promise.all([
      probes.caller.read(),
      probes.callee.read(),
    ]);
    const acceptedAt = calleeSeen.acceptedAt;
    if (acceptedAt === null) throw new Error('the accept click was not seen in the page');
    const sidesMs = [callerSeen.firstFrameAt!, calleeSeen.firstFrameAt!].map(
      (at) => at - acceptedAt,
    );
    checkRelayed('caller', await probes.caller.candidateTypes());
    checkRelayed('callee', await probes.callee.candidateTypes());
    await pages.caller.locator('[data-call-action="hangup"]').click();
    await ended();
    return {
      ms: Math.max(...sidesMs),
      sidesMs,
      madeMs: Math.max(callerSeen.madeAt, calleeSeen.madeAt) - acceptedAt,
      connectedMs: Math.max(callerSeen.connectedAt, calleeSeen.connectedAt) - acceptedAt,
    };
  };
  return async (): Promise<CallSetupRun> => {
    try {
      return await run();
    } catch (error) {
      throw failed(error);
    }
  };
}

/**
 * Starts coturn (its own port, relay range and secret), the server with TURN relay-only
 * on it, and Chromium with a fake camera; two friends; then the baseline and the app's
 * call in turn, `warmup` unmeasured runs of each and `runs` measured ones. Stops all it
 * started.
 */
export async function benchCallSetup(
  options: CallSetupOptions,
  onRun: (kind: 'baseline' | 'ours', run: CallSetupRun) => void = () => {},
): Promise<CallSetup> {
  const coturn = await startCoturn();
  let server: ServerProcess | null = null;
  let browser: Browser | null = null;
  try {
    server = await startTeltlk({
      env: { TURN_URLS: coturn.url, TURN_SECRET: coturn.secret, TURN_RELAY_ONLY: 'true' },
    });
    const [caller, callee] = (await registerAccounts(server.baseUrl, 2)) as [Account, Account];
    await befriend(server.baseUrl, caller, callee);
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const runBaseline = await openBaseline(browser, server, [caller, callee]);
    const runOurs = await openChats(browser, server, caller, callee);
    for (let index = 0; index < options.warmup; index += 1) {
      await runBaseline();
      await runOurs();
    }
    const baseline: CallSetupRun[] = [];
    const ours: CallSetupRun[] = [];
    for (let index = 0; index < options.runs; index += 1) {
      const baselineRun = await runBaseline();
      baseline.push(baselineRun);
      onRun('baseline', baselineRun);
      const oursRun = await runOurs();
      ours.push(oursRun);
      onRun('ours', oursRun);
    }
    const oursMs = median(ours.map((run) => run.ms));
    const baselineMs = median(baseline.map((run) => run.ms));
    return {
      oursMs,
      baselineMs,
      ratio: oursMs / baselineMs,
      ourPhases: {
        madeMs: median(ours.map((run) => run.madeMs)),
        connectedMs: median(ours.map((run) => run.connectedMs)),
      },
      baselineConnectedMs: median(baseline.map((run) => run.connectedMs)),
      ours,
      baseline,
    };
  } finally {
    await browser?.close();
    await server?.stop();
    await coturn.stop();
  }
}
