#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startPiSandbox } from './server.js';

/**
 * `npm run pi:sandbox`: the local Pi sandbox, and the app wired to it, for trying Pi
 * sign-in (and payments) in an ordinary browser. Development only: the key is made up
 * and nothing leaves this machine.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3100' },
    'app-port': { type: 'string', default: '3000' },
    'no-app': { type: 'boolean', default: false },
  },
});

const apiKey = 'sandbox-server-key';
const appUrl = `http://127.0.0.1:${values['app-port']}/`;
const sandbox = await startPiSandbox({ apiKey, port: Number(values.port), appUrl });
const env = {
  PI_API_URL: `${sandbox.url}/v2`,
  PI_API_KEY: apiKey,
  PI_SDK_URL: `${sandbox.url}/pi-sdk.js`,
  PI_SANDBOX: 'true',
  PI_SANDBOX_HOST_URL: `${sandbox.url}/`,
  PI_HORIZON_URL: `${sandbox.url}/horizon`,
  // A key pair made for this run: the sandbox chain's app wallet.
  PI_WALLET_SECRET: sandbox.emulator.appWallet.secret(),
};

if (values['no-app']) {
  console.log(`Pi sandbox at ${sandbox.url}/ . Start the app with:`);
  console.log(
    Object.entries(env)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ') + ' npm start',
  );
} else {
  const main = fileURLToPath(new URL('../../../apps/server/dist/main.js', import.meta.url));
  const app = spawn(process.execPath, [main], {
    stdio: 'inherit',
    env: { ...process.env, ...env, PORT: values['app-port'] },
  });
  app.on('exit', (code) => {
    void sandbox.close().then(() => process.exit(code ?? 0));
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => app.kill(signal));
  }
  console.log(`Pi sandbox: open ${sandbox.url}/ (it frames the app at ${appUrl})`);
}
