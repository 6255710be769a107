import { describe, expect, it } from 'vitest';
import { freePort, spawnServer } from './server.js';

/** A stand-in server: answers /healthz once it listens on PORT, after `delay` ms. */
const healthy = (delay: number) => `
const http = require('node:http');
setTimeout(() => {
  http.createServer((req, res) => res.end(req.url === '/healthz' ? 'ok' : 'no')).listen(
    Number(process.env.PORT),
    process.env.HOST,
  );
}, ${delay});
`;

describe('spawnServer', () => {
  it('resolves once the server answers its health check, and stops it', async () => {
    const server = await spawnServer({ args: ['-e', healthy(300)], env: {} });
    expect(server.baseUrl).toBe(`http://127.0.0.1:${server.port}`);
    expect((await fetch(`${server.baseUrl}/healthz`)).ok).toBe(true);
    await server.stop();
    expect(server.child.exitCode !== null || server.child.signalCode !== null).toBe(true);
  });

  it('takes the port it is given, as a restart on the same address needs', async () => {
    const port = await freePort();
    const server = await spawnServer({ args: ['-e', healthy(0)], env: {}, port });
    expect(server.port).toBe(port);
    await server.stop('SIGKILL');
  });

  it('fails with the output of a server that exits before it is healthy', async () => {
    await expect(
      spawnServer({ args: ['-e', 'console.error("no database"); process.exit(3)'], env: {} }),
    ).rejects.toThrow(/exited early:\nno database/);
  });
});
