import { spawnSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { answersStun, benchConfig, startCoturn } from './coturn.js';

const CONFIG = fileURLToPath(new URL('../../infra/coturn/turnserver.conf', import.meta.url));
const hasTurnserver = spawnSync('turnserver', ['--version']).error === undefined;

describe("the call benchmark's coturn", () => {
  it("is the project's configuration on another port and relay range, with files of its own", async () => {
    const config = benchConfig(await readFile(CONFIG, 'utf8'), {
      port: 40_123,
      minPort: 51_000,
      maxPort: 51_040,
      dir: '/run/bench-coturn',
    });
    const lines = config.split('\n');
    expect(lines).toContain('listening-port=40123');
    expect(lines).toContain('min-port=51000');
    expect(lines).toContain('max-port=51040');
    expect(lines.filter((line) => line.startsWith('listening-port='))).toHaveLength(1);
    expect(lines.filter((line) => /^(min|max)-port=49/.test(line))).toEqual([]);
    expect(lines).toContain('pidfile=/run/bench-coturn/turnserver.pid');
    expect(lines).toContain('userdb=/run/bench-coturn/turndb');
    // The rest as the project keeps it: loopback, the TURN REST scheme.
    expect(lines).toContain('listening-ip=127.0.0.1');
    expect(lines).toContain('use-auth-secret');
  });

  it('refuses a configuration whose port lines it cannot find', () => {
    expect(() =>
      benchConfig('listening-port=3478\nmin-port=1\n', {
        port: 1,
        minPort: 2,
        maxPort: 3,
        dir: '/run/x',
      }),
    ).toThrow('turnserver.conf has no max-port line');
  });

  it.runIf(hasTurnserver)('answers STUN on its port until it is stopped', async () => {
    const coturn = await startCoturn();
    const dir = /pid file created: (\S+)\/turnserver\.pid/.exec(coturn.output())?.[1];
    try {
      expect(coturn.url).toBe(`turn:127.0.0.1:${coturn.port}`);
      expect(coturn.port).not.toBe(3478);
      expect(await answersStun(coturn.port, 1_000)).toBe(true);
      expect(dir).toBeDefined();
    } finally {
      await coturn.stop();
    }
    expect(await answersStun(coturn.port, 300)).toBe(false);
    await expect(stat(dir!)).rejects.toThrow('ENOENT');
  });
});
