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
      apiDocs: true,
      trustProxy: false,
    });
    expect(config.webDistDir.endsWith(join('apps', 'web', 'dist'))).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://teltlk.example/',
      DATA_DIR: '/var/lib/teltlk',
      DATABASE_URL: 'postgres://u:p@db:5432/teltlk',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SMTP_URL: 'smtps://u:p@mail.example.com',
      SMTP_FROM: 'Teltlk <hi@example.com>',
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      WEB_DIST_DIR: '/srv/web',
      API_DOCS: 'true',
      TRUST_PROXY: '10.0.0.0/8, 2001:db8::1',
      RATE_LIMIT_SCALE: '10',
      DEVICE_LOGIN_TTL_SECONDS: '120',
      VAPID_PUBLIC_KEY: 'B'.repeat(87),
      VAPID_PRIVATE_KEY: 'p'.repeat(43),
      VAPID_SUBJECT: 'https://teltlk.example/contact',
      PUSH_HOSTS: 'push.example.com, *.ignored',
      MIN_CLIENT_VERSION: '1.0.1',
      DOWNLOAD_ANDROID_URL: 'https://play.example.com/teltlk',
      DOWNLOAD_IOS_URL: 'https://apps.example.com/teltlk',
      OPERATOR_EMAIL: 'partners@example.com',
      REDIS_URL: 'redis://cache:6379',
      TRANSLATE_OPENAI_URL: 'http://llm:11434/v1',
      TRANSLATE_OPENAI_KEY: 'sk-test',
      TRANSLATE_OPENAI_MODEL: 'qwen2.5:7b',
      TRANSLATE_LIBRETRANSLATE_URL: 'https://libre.example.com',
      TRANSLATE_LIBRETRANSLATE_KEY: 'lt-key',
      TRANSLATE_APERTIUM_URL: 'http://apy:2737',
      TRANSLATE_PROVIDERS: 'apertium, openai,libretranslate',
      TRANSLATE_TIMEOUT_MS: '5000',
      TRANSLATE_CONCURRENCY: '8',
      TRANSLATE_DAILY_CHARACTERS: '2000',
      SOCKETS_PER_SESSION: '4',
      SOCKETS_PER_USER: '12',
      SOCKETS_PER_ADDRESS: '1000',
      UNAUTHED_SOCKETS_PER_ADDRESS: '100',
      MEDIA_IMAGE_MAX_MB: '10',
      MEDIA_FILE_MAX_MB: '50',
      MEDIA_VOICE_MAX_MB: '2',
      MEDIA_VIDEO_MAX_MB: '200',
      MEDIA_DAILY_MB: '0',
      MEDIA_URL_SECRET: 'k'.repeat(40),
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'teltlk-media',
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: 'access',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'false',
      PI_API_URL: 'https://pi.example.com/v2',
      PI_API_KEY: 'pi-server-key',
      PI_SDK_URL: 'https://sdk.example.com/pi-sdk.js',
      PI_WALLET_SECRET: 'S' + 'A'.repeat(55),
      PI_HORIZON_URL: 'https://horizon.example.com',
      WALLET_WITHDRAW_FEE: '0.5',
      WALLET_WITHDRAW_MIN: '2',
      WALLET_WITHDRAW_DAILY_LIMIT: '50.25',
      WALLET_RECHARGE_MAX: '100',
      STUN_URLS: 'stun:stun.example.com:3478',
      TURN_URLS: 'turn:turn.example.com:3478?transport=udp, turns:turn.example.com:5349',
      TURN_SECRET: 't'.repeat(32),
      TURN_TTL_SECONDS: '3600',
      TURN_RELAY_ONLY: 'true',
      JANUS_URL: 'http://127.0.0.1:8088/janus/',
      JANUS_PUBLIC_URL: 'wss://sfu.example.com/janus',
      JANUS_ROOM_ADMIN_KEY: 'room-admin-key',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'https://teltlk.example',
      devOutbox: false,
      dataDir: '/var/lib/teltlk',
      databaseUrl: 'postgres://u:p@db:5432/teltlk',
      production: true,
      logLevel: 'warn',
      smtpUrl: 'smtps://u:p@mail.example.com',
      smtpFrom: 'Teltlk <hi@example.com>',
      smsWebhookUrl: 'https://sms.example.com/send',
      webDistDir: '/srv/web',
      apiDocs: true,
      trustProxy: ['10.0.0.0/8', '2001:db8::1'],
      rateLimitScale: 10,
      deviceLoginTtlSeconds: 120,
      push: {
        vapid: { publicKey: 'B'.repeat(87), privateKey: 'p'.repeat(43) },
        subject: 'https://teltlk.example/contact',
        hosts: ['push.example.com', '*.ignored'],
      },
      minimumClientVersion: '1.0.1',
      downloads: {
        android: 'https://play.example.com/teltlk',
        ios: 'https://apps.example.com/teltlk',
      },
      operatorEmail: 'partners@example.com',
      redisUrl: 'redis://cache:6379',
      translate: {
        openai: { url: 'http://llm:11434/v1', apiKey: 'sk-test', model: 'qwen2.5:7b' },
        libreTranslate: { url: 'https://libre.example.com', apiKey: 'lt-key' },
        apertium: { url: 'http://apy:2737' },
        order: ['apertium', 'openai', 'libretranslate'],
        timeoutMs: 5000,
        concurrency: 8,
        dailyCharacters: 2000,
      },
      calls: {
        ice: {
          stunUrls: ['stun:stun.example.com:3478'],
          turnUrls: ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349'],
          turnSecret: 't'.repeat(32),
          turnTtlSeconds: 3600,
          relayOnly: true,
        },
        janus: {
          url: 'http://127.0.0.1:8088/janus',
          publicUrl: 'wss://sfu.example.com/janus',
          roomAdminKey: 'room-admin-key',
        },
      },
      socketLimits: {
        perSession: 4,
        perUser: 12,
        perAddress: 1000,
        unauthenticatedPerAddress: 100,
      },
      pi: {
        apiUrl: 'https://pi.example.com/v2',
        apiKey: 'pi-server-key',
        sdkUrl: 'https://sdk.example.com/pi-sdk.js',
        sandbox: false,
        sandboxHostUrl: null,
        walletSecret: 'S' + 'A'.repeat(55),
        horizonUrl: 'https://horizon.example.com',
      },
      wallet: {
        withdrawFee: 5_000_000,
        withdrawMin: 20_000_000,
        withdrawDailyLimit: 502_500_000,
        rechargeMax: 1_000_000_000,
      },
      media: {
        imageMaxBytes: 10 * 1024 * 1024,
        fileMaxBytes: 50 * 1024 * 1024,
        voiceMaxBytes: 2 * 1024 * 1024,
        videoMaxBytes: 200 * 1024 * 1024,
        dailyBytes: null,
        urlSecret: 'k'.repeat(40),
        s3: {
          endpoint: 'http://minio:9000',
          bucket: 'teltlk-media',
          region: 'eu-west-1',
          accessKeyId: 'access',
          secretAccessKey: 'secret',
          forcePathStyle: false,
        },
      },
    });
  });

  it('keeps media on disk unless a bucket is named in full', () => {
    expect(loadConfig({}).media).toMatchObject({
      imageMaxBytes: 20 * 1024 * 1024,
      fileMaxBytes: 100 * 1024 * 1024,
      dailyBytes: 2048 * 1024 * 1024,
      urlSecret: null,
      s3: null,
    });
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000', S3_BUCKET: 'media' })).toThrow(
      /S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY are not/,
    );
    expect(() => loadConfig({ MEDIA_URL_SECRET: 'short' })).toThrow(/MEDIA_URL_SECRET/);
  });

  it('serves the API docs outside production only, unless API_DOCS says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).apiDocs).toBe(true);
    const production = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail:25',
      PUBLIC_URL: 'https://teltlk.example',
    };
    expect(loadConfig(production).apiDocs).toBe(false);
    expect(loadConfig({ ...production, API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', API_DOCS: 'false' }).apiDocs).toBe(false);
    expect(() => loadConfig({ API_DOCS: 'sometimes' })).toThrow(/API_DOCS/);
  });

  it('tries the configured translation providers in the default order, and none by default', () => {
    expect(loadConfig({}).translate.order).toEqual([]);
    expect(
      loadConfig({
        TRANSLATE_APERTIUM_URL: 'http://127.0.0.1:2737',
        TRANSLATE_OPENAI_URL: 'http://127.0.0.1:8080/v1',
      }).translate.order,
    ).toEqual(['openai', 'apertium']);
  });

  it('refuses a provider order that names a provider with no URL', () => {
    expect(() =>
      loadConfig({ TRANSLATE_PROVIDERS: 'apertium,openai', TRANSLATE_OPENAI_URL: 'http://x/v1' }),
    ).toThrow(/TRANSLATE_PROVIDERS: apertium/);
    expect(() => loadConfig({ TRANSLATE_PROVIDERS: 'google' })).toThrow(/TRANSLATE_PROVIDERS/);
  });

  it('takes TURN only with its shared secret, and ICE servers only by their schemes', () => {
    expect(loadConfig({}).calls).toEqual({
      ice: {
        stunUrls: [],
        turnUrls: [],
        turnSecret: null,
        turnTtlSeconds: 86400,
        relayOnly: false,
      },
      janus: null,
    });
    expect(() => loadConfig({ TURN_URLS: 'turn:127.0.0.1:3478' })).toThrow(/TURN_SECRET/);
    expect(() => loadConfig({ STUN_URLS: 'turn:127.0.0.1:3478' })).toThrow(/STUN_URLS/);
    expect(() =>
      loadConfig({ TURN_URLS: 'http://127.0.0.1:3478', TURN_SECRET: 's'.repeat(16) }),
    ).toThrow(/TURN_URLS/);
  });

  it('trusts proxies by hop count or address, never every hop', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback,192.168.0.0/16' }).trustProxy).toEqual([
      'loopback',
      '192.168.0.0/16',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: trusting every hop/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '*' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses production with no way to send a verification code', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', SMTP_URL: '' })).toThrow(
      /neither SMTP_URL nor SMS_WEBHOOK_URL/,
    );
    const site = { PUBLIC_URL: 'https://teltlk.example' };
    expect(
      loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', ...site }).production,
    ).toBe(true);
    expect(
      loadConfig({ NODE_ENV: 'production', SMS_WEBHOOK_URL: 'https://sms.example.com', ...site })
        .production,
    ).toBe(true);
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
        PI_WALLET_SECRET: 'GABC',
        WALLET_WITHDRAW_FEE: '0.123456789',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as Error).message;
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'TRUST_PROXY',
      'LOG_LEVEL',
      'PI_WALLET_SECRET',
      'WALLET_WITHDRAW_FEE',
    ])
      expect(message).toContain(name);
    // A secret is named, never shown.
    expect(message).not.toContain('GABC');
  });

  it('is documented: the README table names every variable', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const documented = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)`\s*\|/gm)].map(
      (match) => match[1],
    );
    expect(documented.sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('refuses in production what is only safe on one machine, each with its reason', () => {
    const production = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail.example.com',
      PUBLIC_URL: 'https://teltlk.example',
    };
    expect(loadConfig(production).devOutbox).toBe(false);
    expect(() => loadConfig({ ...production, PUBLIC_URL: undefined })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ ...production, PUBLIC_URL: 'http://teltlk.example' })).toThrow(
      /PUBLIC_URL/,
    );
    expect(() => loadConfig({ ...production, DEV_OUTBOX: 'true' })).toThrow(/DEV_OUTBOX/);
    expect(() => loadConfig({ ...production, PUSH_HOSTS: 'push.example.com, *' })).toThrow(
      /PUSH_HOSTS/,
    );
    expect(() => loadConfig({ ...production, PI_API_URL: 'http://pi.example.com/v2' })).toThrow(
      /PI_API_URL/,
    );
    expect(() =>
      loadConfig({ ...production, PI_HORIZON_URL: 'http://horizon.example.com' }),
    ).toThrow(/PI_HORIZON_URL/);
    // Outside production each is the developer's choice.
    expect(
      loadConfig({
        DEV_OUTBOX: 'true',
        PUSH_HOSTS: '*',
        PI_API_URL: 'http://127.0.0.1:3100/v2',
        PI_HORIZON_URL: 'http://127.0.0.1:3100/horizon',
      }),
    ).toMatchObject({ devOutbox: true, publicUrl: 'http://localhost:3000', push: { hosts: null } });
  });

  it("keeps Pi's sandbox out of production", () => {
    const production = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail.example.com',
      PUBLIC_URL: 'https://teltlk.example',
    };
    expect(() => loadConfig({ ...production, PI_SANDBOX: 'true' })).toThrow(/PI_SANDBOX/);
    expect(() =>
      loadConfig({ ...production, PI_SANDBOX_HOST_URL: 'http://127.0.0.1:3100/' }),
    ).toThrow(/PI_SANDBOX/);
    expect(loadConfig({ ...production, PI_API_KEY: 'pi-server-key' }).pi).toMatchObject({
      apiUrl: 'https://api.minepi.com/v2',
      sdkUrl: 'https://sdk.minepi.com/pi-sdk.js',
      sandbox: false,
    });
  });
});
