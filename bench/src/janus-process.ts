import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@teltlk/test-kit';

const infraDir = fileURLToPath(new URL('../../infra/janus/', import.meta.url));

/**
 * Media ports of the benchmark's Janus: beside the range of infra/janus (20000–20200),
 * which a Janus already running for the tests holds.
 */
const RTP_PORTS = '20400-20600';
const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 10_000;

export interface JanusProcess {
  pid: number;
  /** Its HTTP API, e.g. `http://127.0.0.1:41234/janus`. */
  url: string;
  /** The VideoRoom's admin key, made up for this run. */
  adminKey: string;
  stop(): Promise<void>;
}

/** A config of infra/janus with `pattern` replaced; fails if the config no longer has it. */
function edited(text: string, file: string, pattern: RegExp | string, value: string): string {
  const found = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  if (!found) throw new Error(`infra/janus/${file} has no ${String(pattern)} to set`);
  return text.replace(pattern, value);
}

/**
 * Janus as .ci/run starts it (the configs of infra/janus, the admin key written in), but
 * in a temporary config folder with a free HTTP port, media ports of its own and an admin
 * key made up for the run; resolves once its API answers.
 */
export async function startJanus(): Promise<JanusProcess> {
  const configs = await mkdtemp(join(tmpdir(), 'teltlk-bench-janus-'));
  const adminKey = randomBytes(18).toString('base64url');
  const port = await freePort();
  for (const file of (await readdir(infraDir)).filter((name) => name.endsWith('.jcfg'))) {
    let text = await readFile(join(infraDir, file), 'utf8');
    if (file === 'janus.plugin.videoroom.jcfg')
      text = edited(text, file, '@JANUS_ROOM_ADMIN_KEY@', adminKey);
    if (file === 'janus.transport.http.jcfg')
      text = edited(text, file, /^(\s*)port = \d+$/m, `$1port = ${port}`);
    if (file === 'janus.jcfg')
      text = edited(text, file, /rtp_port_range = "[^"]*"/, `rtp_port_range = "${RTP_PORTS}"`);
    await writeFile(join(configs, file), text);
  }
  const child = spawn('janus', [`--configs-folder=${configs}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Not installed, say: reported by the wait below rather than thrown from an event.
  child.once('error', (error) => (output += `\n${error.message}`));
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  let ended = false;
  void exited.then(() => (ended = true));
  const url = `http://127.0.0.1:${port}/janus`;
  const stop = async () => {
    if (!ended) {
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(killed);
    }
    await rm(configs, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (ended) throw new Error(`janus did not start:\n${output}`);
      const answered = await fetch(url, {
        method: 'POST',
        body: JSON.stringify({ janus: 'info', transaction: 'bench' }),
      }).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) break;
      if (Date.now() > deadline) throw new Error(`janus did not answer:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  if (child.pid === undefined) throw new Error('janus has no pid');
  return { pid: child.pid, url, adminKey, stop };
}
