import { ConfigError, type Env } from './config-env.js';

/**
 * Settings that are fine on one's own machine and a hole on a public server: each one
 * stops the start with its reason.
 */
export function refuseInProduction(e: Env): void {
  if (!e.SMTP_URL && !e.SMS_WEBHOOK_URL) {
    // Nobody could receive a code, so nobody could register or reset a password.
    throw new ConfigError(
      'Invalid configuration:\n  NODE_ENV is production but neither SMTP_URL nor SMS_WEBHOOK_URL is set: ' +
        'verification codes could not be sent to anyone (outside production they go to the dev outbox)',
    );
  }
  const problems: string[] = [];
  if (!e.PUBLIC_URL?.startsWith('https://')) {
    problems.push('PUBLIC_URL: set it to the https:// address people open the app at');
  }
  if (e.DEV_OUTBOX) {
    problems.push('DEV_OUTBOX: the dev outbox shows codes over HTTP and is for development only');
  }
  if (e.PUSH_HOSTS.split(',').some((host) => host.trim() === '*')) {
    problems.push("PUSH_HOSTS: '*' would let the server post to any address a client names");
  }
  if (!e.PI_API_URL.startsWith('https://')) {
    problems.push("PI_API_URL: must be https://, Pi's API keys and tokens travel on it");
  }
  if (e.PI_HORIZON_URL !== undefined && !e.PI_HORIZON_URL.startsWith('https://')) {
    problems.push('PI_HORIZON_URL: must be https://, withdrawals are settled by what it says');
  }
  if (problems.length > 0) {
    throw new ConfigError(
      `Invalid configuration (NODE_ENV is production):\n${problems.map((line) => `  ${line}`).join('\n')}`,
    );
  }
}
