import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has defaults that run one machine with nothing installed', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: join(process.cwd(), 'data'),
      databaseUrl: null,
      production: false,
      logLevel: 'info',
      smtpUrl: null,
      smtpFrom: 'Teltlk <no-reply@teltlk.local>',
      smsWebhookUrl: null,
      trustProxy: false,
    });
    expect(config.webDistDir.endsWith(join('apps', 'web', 'dist'))).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/teltlk',
      DATABASE_URL: 'postgres://u:p@db:5432/teltlk',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SMTP_URL: 'smtps://u:p@mail.example.com',
      SMTP_FROM: 'Teltlk <hi@example.com>',
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      WEB_DIST_DIR: '/srv/web',
      TRUST_PROXY: 'true',
      REDIS_URL: 'redis://cache:6379',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/teltlk',
      databaseUrl: 'postgres://u:p@db:5432/teltlk',
      production: true,
      logLevel: 'warn',
      smtpUrl: 'smtps://u:p@mail.example.com',
      smtpFrom: 'Teltlk <hi@example.com>',
      smsWebhookUrl: 'https://sms.example.com/send',
      webDistDir: '/srv/web',
      trustProxy: true,
      redisUrl: 'redis://cache:6379',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({
      databaseUrl: null,
      port: 3000,
    });
  });

  it('fails with a message naming each bad variable', () => {
    let caught: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        TRUST_PROXY: 'maybe',
        LOG_LEVEL: 'loud',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'TRUST_PROXY', 'LOG_LEVEL'])
      expect(message).toContain(name);
  });

  it('is documented: the README table names every variable', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const documented = [...readme.matchAll(/^\| `([A-Z_]+)`\s*\|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual([...CONFIG_VARIABLES].sort());
  });
});
