import { randomBytes } from 'node:crypto';
import { GROUP_CALL_VIDEO_MAX, groupConversationId } from '@teltlk/protocol';
import {
  GroupCallDevice,
  serveGroupCallPage,
  type GroupCallPageServer,
  type PageIceServer,
  type SfuWay,
} from '@teltlk/test-kit';
import { chromium, type Browser } from 'playwright-core';
import { WebSocket } from 'ws';
import { JanusVideoRoom } from '../../apps/server/src/modules/calls/janus.js';
import { befriend, call, registerAccounts, type Account } from './accounts.js';
import { startJanus, type JanusProcess } from './janus-process.js';
import { startTeltlk, type ServerProcess } from './server-process.js';
import { cpuMsOf, median } from './stats.js';

/**
 * A group video call's cost on the media side (PERFORMANCE.md, "group call"): the CPU
 * time of Janus plus our server while `participants` people (8) are in a call, each
 * publishing the fake camera and microphone and receiving everyone else through the web
 * app's Janus client, against the same pages on a room made on Janus directly (with the
 * server's own room settings: the server's adapter makes it), no server at all.
 *
 * Ours: the call made through our server as the app makes it (a socket per person,
 * callInvite and callAccept, POST /calls/:id/sfu for each way in, callMedia once media
 * flows, the sockets kept open and pinging, the call hung up at the end). Janus is the
 * benchmark's own (infra/janus configs, another port, an admin key made up for the run);
 * the browsers are one Chromium, a context per person. CPU is utime + stime of each
 * process (all threads) over the same steady window once every stream flows, runs of
 * each alternating (ABBA), medians compared. A server that polled Janus, re-made rooms
 * or worked per packet would show in the ratio.
 */

export interface SfuOptions {
  participants: number;
  /** The measured window of each run. */
  seconds: number;
  /** Runs of each (ours, baseline), alternating. */
  runs: number;
  /** Wait once every stream flows before measuring (bandwidth estimates settle). */
  settleSeconds: number;
}

export const SFU_DEFAULTS: SfuOptions = {
  participants: 8,
  seconds: 20,
  runs: 3,
  settleSeconds: 5,
};

export interface SfuResult {
  /** Median CPU ms per window: Janus and our server in our runs, Janus alone in the baseline. */
  oursCpuMs: number;
  oursJanusCpuMs: number;
  oursServerCpuMs: number;
  baselineCpuMs: number;
  ratio: number;
  /**
   * The same per MB of media Janus delivered in the window: the browsers' throughput on a
   * busy machine varies between runs, and Janus's work with it.
   */
  oursMsPerMb: number;
  baselineMsPerMb: number;
  participants: number;
  /** The fewest remote video streams that flowed through a window, over all runs. */
  streams: number;
  /** What a full call has: everyone receiving everyone else. */
  expectedStreams: number;
}

/** The fake camera at a size and rate eight encoders and 56 decoders keep up with on 2 cores. */
const CAMERA = { width: 320, height: 240, frameRate: 15 };
/** Longest wait for every stream to flow after joining. */
const FLOW_TIMEOUT_MS = 60_000;
/** The app's socket pings this often (HEARTBEAT_INTERVAL_MS of the protocol). */
const PING_MS = 25_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A person's socket on our server, as the app keeps it: authenticated, pinging. */
class AppSocket {
  private readonly answers = new Map<string, (frame: Record<string, unknown>) => void>();
  private readonly ping: ReturnType<typeof setInterval>;
  private asked = 0;

  private constructor(private readonly ws: WebSocket) {
    this.ping = setInterval(() => ws.send('{"t":"ping"}'), PING_MS);
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if (typeof frame.rid === 'string') this.answers.get(frame.rid)?.(frame);
    });
  }

  static open(wsUrl: string, token: string): Promise<AppSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
      ws.once('open', () => ws.send(JSON.stringify({ t: 'auth', token })));
      ws.once('error', reject);
      const hello = (data: Buffer) => {
        if (!data.toString().includes('"t":"hello"')) return;
        ws.off('message', hello);
        resolve(new AppSocket(ws));
      };
      ws.on('message', hello);
    });
  }

  /** Sends a call frame; resolves with the call it is answered with. */
  ask<T>(frame: Record<string, unknown>): Promise<T> {
    this.asked += 1;
    const rid = `sfu-${this.asked}`;
    return new Promise((resolve, reject) => {
      this.answers.set(rid, (answer) => {
        this.answers.delete(rid);
        if (answer.t === 'call') resolve(answer.call as T);
        else reject(new Error(`${String(frame.t)} refused: ${JSON.stringify(answer.error)}`));
      });
      this.ws.send(JSON.stringify({ ...frame, rid }));
    });
  }

  close(): void {
    clearInterval(this.ping);
    this.ws.close();
  }
}

/** A measured window: CPU ms of each process, remote videos flowing, bytes delivered. */
interface Window {
  cpuMs: number[];
  streams: number;
  bytes: number;
}

interface Stage {
  janus: JanusProcess;
  server: ServerProcess;
  pages: GroupCallPageServer;
  browser: Browser;
  accounts: Account[];
  conversationId: string;
  devices: GroupCallDevice[];
}

/** Runs in which every device joins `ways` and the window is measured; then all leave. */
async function inCall(
  stage: Stage,
  ways: SfuWay[],
  iceServers: PageIceServer[][],
  pids: number[],
  options: SfuOptions,
  whenFlowing: () => Promise<void> = async () => {},
): Promise<Window> {
  const { devices, accounts } = stage;
  try {
    const refused = await Promise.all(
      devices.map((device, index) =>
        device.join({
          way: ways[index]!,
          iceServers: iceServers[index]!,
          video: CAMERA,
          audio: 'microphone',
        }),
      ),
    );
    const refusal = refused.find((answer) => answer !== null);
    if (refusal) throw new Error(`Janus refused a participant: ${refusal.message}`);
    // Every device receives everyone else's audio and video.
    const deadline = Date.now() + FLOW_TIMEOUT_MS;
    for (const [index, device] of devices.entries()) {
      for (;;) {
        const received = await device.received();
        const missing = accounts.filter(
          (other, at) =>
            at !== index &&
            !((received[other.userId]?.audio ?? 0) > 0 && (received[other.userId]?.video ?? 0) > 0),
        );
        if (missing.length === 0) break;
        if (Date.now() > deadline)
          throw new Error(`participant ${index} receives nothing from ${missing.length} others`);
        await sleep(500);
      }
    }
    await whenFlowing();
    await sleep(options.settleSeconds * 1000);
    const bytesBefore = await Promise.all(devices.map((device) => device.received()));
    const cpuBefore = await Promise.all(pids.map((pid) => cpuMsOf(pid)));
    await sleep(options.seconds * 1000);
    const cpuAfter = await Promise.all(pids.map((pid) => cpuMsOf(pid)));
    const bytesAfter = await Promise.all(devices.map((device) => device.received()));
    // Video streams that kept flowing through the window, each receiver's from each sender,
    // and the bytes Janus delivered in it.
    let streams = 0;
    let bytes = 0;
    for (const [index, after] of bytesAfter.entries()) {
      for (const [userId, got] of Object.entries(after)) {
        if (userId === accounts[index]!.userId) continue;
        const had = bytesBefore[index]![userId];
        if (got.video > (had?.video ?? 0)) streams += 1;
        bytes += got.video + got.audio - (had?.video ?? 0) - (had?.audio ?? 0);
      }
    }
    return { cpuMs: cpuAfter.map((after, at) => after - cpuBefore[at]!), streams, bytes };
  } finally {
    await Promise.all(devices.map((device) => device.leave()));
  }
}

/** Ours: the call made, joined and ended through our server. */
async function oursRun(stage: Stage, options: SfuOptions, run: number) {
  const { server, janus, accounts } = stage;
  const sockets = await Promise.all(
    accounts.map((account) => AppSocket.open(server.wsUrl, account.token)),
  );
  try {
    const [caller, ...invitees] = sockets;
    const made = await caller!.ask<{ id: string }>({
      t: 'callInvite',
      clientCallId: `sfu-bench-${run}-${randomBytes(6).toString('hex')}`,
      conversationId: stage.conversationId,
      media: 'video',
    });
    await Promise.all(invitees.map((socket) => socket.ask({ t: 'callAccept', callId: made.id })));
    const ways = await Promise.all(
      accounts.map((account) =>
        call<SfuWay>(server.baseUrl, 'POST', `/calls/${made.id}/sfu`, { token: account.token }),
      ),
    );
    const iceServers = await Promise.all(
      accounts.map(async (account) => {
        const answer = await call<{ iceServers: PageIceServer[] }>(
          server.baseUrl,
          'GET',
          '/calls/ice-servers',
          { token: account.token },
        );
        return answer.iceServers;
      }),
    );
    const measured = await inCall(stage, ways, iceServers, [janus.pid, server.pid], options, () =>
      Promise.all(
        sockets.map((socket) =>
          socket.ask({ t: 'callMedia', callId: made.id, state: 'connected' }),
        ),
      ).then(() => undefined),
    );
    // Everyone hangs up; the call ends with the last ones (refused then: it has ended).
    await Promise.all(
      sockets.map((socket) =>
        socket.ask({ t: 'callHangup', callId: made.id }).catch(() => undefined),
      ),
    );
    return measured;
  } finally {
    for (const socket of sockets) socket.close();
  }
}

/** The baseline: the same pages on a room made on Janus directly, no server involved. */
async function baselineRun(stage: Stage, options: SfuOptions) {
  const { janus, accounts } = stage;
  const sfu = new JanusVideoRoom({
    url: janus.url,
    publicUrl: janus.url,
    adminKey: janus.adminKey,
  });
  const tokens = accounts.map(() => randomBytes(24).toString('base64url'));
  const room = await sfu.createRoom({ publishers: GROUP_CALL_VIDEO_MAX, tokens });
  try {
    const ways = accounts.map((account, index) => ({
      url: janus.url,
      room: room.id,
      token: tokens[index]!,
      display: account.userId,
      publishers: GROUP_CALL_VIDEO_MAX,
    }));
    return await inCall(
      stage,
      ways,
      accounts.map(() => []),
      [janus.pid],
      options,
    );
  } finally {
    await sfu.destroyRoom(room).catch(() => undefined);
  }
}

export async function benchSfu(options: SfuOptions): Promise<SfuResult> {
  const janus = await startJanus();
  const stopping: (() => Promise<unknown>)[] = [() => janus.stop()];
  try {
    const server = await startTeltlk({
      env: { JANUS_URL: janus.url, JANUS_ROOM_ADMIN_KEY: janus.adminKey },
    });
    stopping.unshift(() => server.stop());
    const pages = await serveGroupCallPage();
    stopping.unshift(() => pages.close());
    const browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        // Pages in the background keep their timers and media at full rate.
        '--disable-background-timer-throttling',
        '--disable-renderer-backgrounding',
        '--disable-backgrounding-occluded-windows',
      ],
    });
    stopping.unshift(() => browser.close());

    const accounts = await registerAccounts(server.baseUrl, options.participants);
    const [owner, ...members] = accounts;
    for (const member of members) await befriend(server.baseUrl, owner!, member);
    const group = await call<{ id: string }>(server.baseUrl, 'POST', '/groups', {
      body: { name: 'Call bench', memberIds: members.map((member) => member.userId) },
      token: owner!.token,
    });
    const devices: GroupCallDevice[] = [];
    for (const _ of accounts) {
      const page = await (await browser.newContext()).newPage();
      await page.goto(pages.url);
      devices.push(new GroupCallDevice(page));
    }
    const stage: Stage = {
      janus,
      server,
      pages,
      browser,
      accounts,
      conversationId: groupConversationId(group.id),
      devices,
    };

    const ours: { janus: number; server: number; bytes: number }[] = [];
    const baseline: { janus: number; bytes: number }[] = [];
    let streams = Number.POSITIVE_INFINITY;
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    for (let run = 0; run < options.runs; run += 1) {
      const oursFirst = run % 2 === 0;
      for (const which of oursFirst ? ['ours', 'baseline'] : ['baseline', 'ours']) {
        if (which === 'ours') {
          const { cpuMs, bytes, ...window } = await oursRun(stage, options, run);
          ours.push({ janus: cpuMs[0]!, server: cpuMs[1]!, bytes });
          streams = Math.min(streams, window.streams);
          console.log(
            `  run ${run + 1} ours: Janus ${cpuMs[0]!.toFixed(0)} ms + server ` +
              `${cpuMs[1]!.toFixed(0)} ms CPU, ${mb(bytes)} MB delivered`,
          );
        } else {
          const { cpuMs, bytes, ...window } = await baselineRun(stage, options);
          baseline.push({ janus: cpuMs[0]!, bytes });
          streams = Math.min(streams, window.streams);
          console.log(
            `  run ${run + 1} baseline: Janus ${cpuMs[0]!.toFixed(0)} ms CPU, ${mb(bytes)} MB delivered`,
          );
        }
      }
    }
    const oursCpuMs = median(ours.map((run) => run.janus + run.server));
    const baselineCpuMs = median(baseline.map((run) => run.janus));
    const perMb = (cpuMs: number, bytes: number) => cpuMs / (bytes / 1024 / 1024);
    return {
      oursCpuMs,
      oursJanusCpuMs: median(ours.map((run) => run.janus)),
      oursServerCpuMs: median(ours.map((run) => run.server)),
      baselineCpuMs,
      ratio: oursCpuMs / baselineCpuMs,
      oursMsPerMb: median(ours.map((run) => perMb(run.janus + run.server, run.bytes))),
      baselineMsPerMb: median(baseline.map((run) => perMb(run.janus, run.bytes))),
      participants: options.participants,
      streams,
      expectedStreams: options.participants * (options.participants - 1),
    };
  } finally {
    for (const stop of stopping) await stop().catch(() => undefined);
  }
}
