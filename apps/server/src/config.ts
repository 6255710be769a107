import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CONTACT_EMAIL, DEVICE_LOGIN_TTL_SECONDS, toUnits } from '@teltlk/protocol';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from './realtime/limits.js';
import type { IceConfig } from './modules/calls/ice.js';

/**
 * The server's whole configuration, read from environment variables here and nowhere else.
 * Every variable is optional; the defaults run one machine with nothing else installed.
 */

/** The built web app, found next to this file's package so it works from src/ (tsx) and dist/. */
const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'expected true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** An amount of Pi as decimal text, read as units (at most 7 decimal places). */
const piAmount = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const units = toUnits(text, 'PI');
      if (units === null) {
        ctx.addIssue({ code: 'custom', message: 'an amount of Pi, at most 7 decimal places' });
        return z.NEVER;
      }
      return units;
    });

const urlWithScheme = (schemes: string[]) =>
  z
    .url({ error: `expected a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}` })
    .refine((value) => schemes.includes(new URL(value).protocol.slice(0, -1)), {
      error: `expected a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`,
    });

/** Translation providers, in the order they are tried unless TRANSLATE_PROVIDERS says otherwise. */
const TRANSLATE_PROVIDER_NAMES = ['openai', 'libretranslate', 'apertium'] as const;

/** A comma-separated list of ICE server URLs of these schemes (empty: none). */
const iceUrls = (schemes: string[]) =>
  z
    .string()
    .default('')
    .transform((text, context) => {
      const urls = text
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean);
      const bad = urls.filter((url) => !schemes.some((scheme) => url.startsWith(`${scheme}:`)));
      if (bad.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `expected ${schemes.join(' or ')} URLs (not ${bad.join(', ')})`,
        });
        return z.NEVER;
      }
      return urls;
    });

const envSchema = z.object({
  /** TCP port to listen on. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Address to bind; 0.0.0.0 listens on every interface. */
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * Where people open the app (`https://teltlk.example`): links the server sends out (an
   * address replaced, told to the old one with a link to undo it) point there. Unset:
   * `http://localhost:<PORT>`; required in production.
   */
  PUBLIC_URL: urlWithScheme(['http', 'https']).optional(),
  /**
   * `true`: codes and notices of channels without a provider are kept in the dev outbox,
   * readable from this machine only (`npm start` sets it outside production). Refused in
   * production.
   */
  DEV_OUTBOX: booleanFlag.default(false),
  /** Folder for the SQLite database and uploaded files, resolved against the working directory. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** Unset: a SQLite file `<DATA_DIR>/teltlk.db`. `postgres://…`: PostgreSQL. */
  DATABASE_URL: urlWithScheme(['postgres', 'postgresql']).optional(),
  /** `production` turns the dev outbox off and needs SMTP_URL or SMS_WEBHOOK_URL: a channel without a provider is refused. */
  /** `production` turns the dev outbox (codes readable over HTTP) and, unless API_DOCS says otherwise, the API docs off. */
  NODE_ENV: z.string().default('development'),
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Unset: no email provider (codes go to the dev outbox, or are refused in production). `smtp://` or `smtps://` URL for nodemailer. */
  SMTP_URL: urlWithScheme(['smtp', 'smtps']).optional(),
  /** Sender of verification emails. */
  SMTP_FROM: z.string().min(3).default('Teltlk <no-reply@teltlk.local>'),
  /** Unset: no SMS provider. Otherwise each SMS is POSTed as JSON `{ to, text }` to this URL. */
  SMS_WEBHOOK_URL: urlWithScheme(['http', 'https']).optional(),
  /** The built web app served at `/`; defaults to apps/web/dist of this checkout. */
  WEB_DIST_DIR: z.string().min(1).default(DEFAULT_WEB_DIST_DIR),
  /** `true`: the OpenAPI document at /openapi.json and its UI at /docs. Default: on outside production, off in it. */
  API_DOCS: booleanFlag.optional(),
  /**
   * Reverse proxies whose X-Forwarded-For is believed: `false`, a hop count, or a list of
   * proxy addresses/CIDRs. Never "trust every hop": anyone could then pick their address.
   */
  TRUST_PROXY: z
    .string()
    .transform((value, context): TrustProxy => {
      const text = value.trim().toLowerCase();
      if (['false', '0', 'no'].includes(text)) return false;
      if (/^\d+$/.test(text)) return Number(text);
      const entries = text.split(',').map((entry) => entry.trim());
      const bad = entries.filter((entry) => !isProxyEntry(entry));
      if (bad.length === 0) return entries;
      context.addIssue({
        code: 'custom',
        message:
          text === 'true' || text === 'yes'
            ? 'trusting every hop lets any client choose its address: give the number of proxies in front (e.g. 1) or their addresses'
            : `expected false, a hop count, or proxy addresses/CIDRs (not ${bad.join(', ')})`,
      });
      return z.NEVER;
    })
    .default(false),
  /** The VAPID key pair that signs Web Push (base64url, as web-push makes them); unset: made at first start and kept in DATA_DIR. */
  VAPID_PUBLIC_KEY: z.string().min(40).max(200).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).max(200).optional(),
  /** How push services reach the operator (VAPID `sub`): a mailto: or https: address. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, { error: 'expected a mailto: or https:// address' })
    .default(`mailto:${CONTACT_EMAIL}`),
  /** Push service hosts a subscription may point at (and their subdomains), comma-separated; `*`: any. */
  PUSH_HOSTS: z
    .string()
    .default('fcm.googleapis.com,push.services.mozilla.com,push.apple.com,notify.windows.com'),
  /** The oldest app version the server still works with; older ones are told to update (`/upgradation`). */
  MIN_CLIENT_VERSION: z
    .string()
    .regex(/^\d+(\.\d+){0,3}$/, { error: 'expected a version such as 1.0.2' })
    .optional(),
  /** The app's Android download, linked from the landing site; unset: 'Download link acquisition failed'. */
  DOWNLOAD_ANDROID_URL: urlWithScheme(['https']).optional(),
  /** The app's iPhone download (App Store), linked from the landing site. */
  DOWNLOAD_IOS_URL: urlWithScheme(['https']).optional(),
  /** Where partnership requests from the landing site are emailed (with SMTP_URL); they are logged either way. */
  OPERATOR_EMAIL: z.email().optional(),
  /** How long a device-login ticket (QR code) lasts; the spec's app login code is 3 minutes. */
  DEVICE_LOGIN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(DEVICE_LOGIN_TTL_SECONDS),
  /** Multiplies every rate limit; load tests raise it, normal running leaves it at 1. */
  RATE_LIMIT_SCALE: z.coerce.number().min(0.01).max(100_000).default(1),
  /** Unset: one node, in-process fan-out. `redis://` or `rediss://`: nodes share pushes over Redis pub/sub. */
  REDIS_URL: urlWithScheme(['redis', 'rediss']).optional(),
  /** OpenAI-compatible chat completions base URL with its version path (hosted, or Ollama, vLLM, llama.cpp: `http://host:port/v1`). */
  TRANSLATE_OPENAI_URL: urlWithScheme(['http', 'https']).optional(),
  /** Bearer key for TRANSLATE_OPENAI_URL; unset for servers that need none. */
  TRANSLATE_OPENAI_KEY: z.string().optional(),
  /** Model name sent to TRANSLATE_OPENAI_URL. */
  TRANSLATE_OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** LibreTranslate server URL. */
  TRANSLATE_LIBRETRANSLATE_URL: urlWithScheme(['http', 'https']).optional(),
  /** LibreTranslate API key, if the server asks for one. */
  TRANSLATE_LIBRETRANSLATE_KEY: z.string().optional(),
  /** Apertium APY server URL (Debian package `apertium-apy` with pairs such as `apertium-eng-spa`). */
  TRANSLATE_APERTIUM_URL: urlWithScheme(['http', 'https']).optional(),
  /** Order in which configured providers are tried, e.g. `apertium,openai`; the first that has the language pair wins. Default: openai, libretranslate, apertium. */
  TRANSLATE_PROVIDERS: z
    .string()
    .transform((list) => list.split(',').map((name) => name.trim()))
    .pipe(
      z.array(
        z.enum(TRANSLATE_PROVIDER_NAMES, {
          error: `expected a comma-separated list of ${TRANSLATE_PROVIDER_NAMES.join(', ')}`,
        }),
      ),
    )
    .optional(),
  /** Longest wait for one provider call, in milliseconds (each of up to 3 attempts). */
  TRANSLATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  /** Provider calls in flight at once, per provider. */
  TRANSLATE_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  /** Characters of translation one user may cause per UTC day. */
  TRANSLATE_DAILY_CHARACTERS: z.coerce.number().int().min(0).default(100_000),
  /** Largest photo one may send, in megabytes (checked before any byte is stored). */
  MEDIA_IMAGE_MAX_MB: z.coerce.number().int().min(1).max(1024).default(20),
  /** Largest file one may send, in megabytes. */
  MEDIA_FILE_MAX_MB: z.coerce.number().int().min(1).max(10_240).default(100),
  /** Largest voice message, in megabytes (a minute of speech is well under one). */
  MEDIA_VOICE_MAX_MB: z.coerce.number().int().min(1).max(100).default(5),
  /** Largest video one may send, in megabytes. */
  MEDIA_VIDEO_MAX_MB: z.coerce.number().int().min(1).max(10_240).default(100),
  /** Megabytes one person may upload per UTC day, all kinds together; 0: no daily limit. */
  MEDIA_DAILY_MB: z.coerce.number().int().min(0).default(2048),
  /**
   * Key that signs media addresses (at least 32 characters). Unset: one is made at first
   * start and kept in `<DATA_DIR>/media-url.key`; every node of a cluster needs the same.
   */
  MEDIA_URL_SECRET: z.string().min(32).optional(),
  /** Unset: media on local disk under `<DATA_DIR>/media`. Set: an S3-compatible bucket at this endpoint (`https://s3.amazonaws.com`, MinIO, …). */
  S3_ENDPOINT: urlWithScheme(['http', 'https']).optional(),
  /** The bucket media goes to (S3_ENDPOINT set). */
  S3_BUCKET: z.string().min(3).max(63).optional(),
  /** The bucket's region. */
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Access key of S3_ENDPOINT. */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  /** Secret key of S3_ENDPOINT. */
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** `true`: bucket in the path (`endpoint/bucket/key`), as MinIO and most self-hosted stores want. */
  S3_FORCE_PATH_STYLE: booleanFlag.default(true),
  /** Sockets one session (a browser and its tabs) may have open on a node. */
  SOCKETS_PER_SESSION: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.perSession),
  /** Pi's Platform API with its version path; the local sandbox (`npm run pi:sandbox`) serves one too. */
  PI_API_URL: urlWithScheme(['http', 'https']).default('https://api.minepi.com/v2'),
  /** The app's server API key from Pi's developer portal. Unset: Pi sign-in is off. */
  PI_API_KEY: z.string().min(8).optional(),
  /** The Pi SDK script the web app loads inside the Pi Browser. */
  PI_SDK_URL: urlWithScheme(['http', 'https']).default('https://sdk.minepi.com/pi-sdk.js'),
  /** `true`: the SDK runs in Pi's sandbox (development only; refused in production). */
  PI_SANDBOX: booleanFlag.default(false),
  /** The local sandbox's host page, allowed to frame the app (development only). */
  PI_SANDBOX_HOST_URL: urlWithScheme(['http', 'https']).optional(),
  /** The app wallet's secret seed (`S…`), which signs withdrawals. Unset: withdrawals are off. Never logged. */
  PI_WALLET_SECRET: z
    .string()
    .regex(/^S[A-Z2-7]{55}$/, 'a Stellar secret seed: S and 55 base32 characters')
    .optional(),
  /** Horizon of the Pi blockchain: recharges are checked on it, withdrawals sent through it. */
  PI_HORIZON_URL: urlWithScheme(['http', 'https']).optional(),
  /** Fee of a withdrawal in Pi, on top of the amount sent. */
  WALLET_WITHDRAW_FEE: piAmount('0.01'),
  /** Smallest withdrawal in Pi. */
  WALLET_WITHDRAW_MIN: piAmount('1'),
  /** Pi one person may withdraw per UTC day, fees excluded. */
  WALLET_WITHDRAW_DAILY_LIMIT: piAmount('1000'),
  /** Largest single recharge in Pi. */
  WALLET_RECHARGE_MAX: piAmount('10000'),
  /** Sockets one user may have open on a node, all sessions together. */
  SOCKETS_PER_USER: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.perUser),
  /** Sockets one client address (IPv6: its /64) may have open on a node. */
  SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).default(DEFAULT_SOCKET_LIMITS.perAddress),
  /** Sockets one client address may have open on a node before they authenticate. */
  UNAUTHED_SOCKETS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_SOCKET_LIMITS.unauthenticatedPerAddress),
  /** STUN servers for calls, comma-separated (`stun:host:3478`); unset: none. */
  STUN_URLS: iceUrls(['stun', 'stuns']),
  /** TURN servers for calls, comma-separated (`turn:host:3478?transport=udp`, `turns:host:5349`); used with TURN_SECRET. */
  TURN_URLS: iceUrls(['turn', 'turns']),
  /** coturn's `static-auth-secret`: TURN credentials are made from it for each user (the TURN REST scheme). */
  TURN_SECRET: z.string().min(16).max(200).optional(),
  /** How long TURN credentials handed to a browser work. */
  TURN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(24 * 3600),
  /** Janus's HTTP API as the server reaches it (`http://127.0.0.1:8088/janus`); unset: no group call rooms. */
  JANUS_URL: urlWithScheme(['http', 'https']).optional(),
  /** Janus as browsers reach it (its public WebSocket or HTTPS address); unset: JANUS_URL. */
  JANUS_PUBLIC_URL: urlWithScheme(['http', 'https', 'ws', 'wss']).optional(),
  /** The VideoRoom plugin's `admin_key`, which creating rooms needs. */
  JANUS_ROOM_ADMIN_KEY: z.string().min(8).max(200).optional(),
});

/** Every environment variable the server reads (the README's configuration table lists them). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export interface Config {
  port: number;
  host: string;
  /** Where people open the app, without a trailing slash. */
  publicUrl: string;
  /** Whether channels without a provider put their codes in the dev outbox. */
  devOutbox: boolean;
  dataDir: string;
  /** PostgreSQL connection string, or null for the SQLite file in dataDir. */
  databaseUrl: string | null;
  production: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  smtpUrl: string | null;
  smtpFrom: string;
  smsWebhookUrl: string | null;
  webDistDir: string;
  /** Whether /docs and /openapi.json are served (the document is built either way). */
  apiDocs: boolean;
  /** For Fastify's trustProxy: false, a hop count, or proxy addresses/CIDRs. */
  trustProxy: TrustProxy;
  rateLimitScale: number;
  deviceLoginTtlSeconds: number;
  push: PushConfig;
  minimumClientVersion: string | null;
  downloads: { android: string | null; ios: string | null };
  operatorEmail: string | null;
  /** Redis for the cross-node bus, or null for one node with an in-process bus. */
  redisUrl: string | null;
  translate: TranslateConfig;
  media: MediaConfig;
  pi: PiConfig;
  wallet: WalletConfig;
  /** Caps on sockets per session, user and client address (per node). */
  calls: CallsConfig;
  socketLimits: Pick<
    SocketLimits,
    'perSession' | 'perUser' | 'perAddress' | 'unauthenticatedPerAddress'
  >;
}

export type TrustProxy = false | number | string[];

export interface PiConfig {
  apiUrl: string;
  /** null: Pi is off. */
  apiKey: string | null;
  sdkUrl: string;
  sandbox: boolean;
  sandboxHostUrl: string | null;
  /** The app wallet's secret seed; null: withdrawals are off. */
  walletSecret: string | null;
  horizonUrl: string;
}

/** The wallet's money rules, in units. */
export interface WalletConfig {
  withdrawFee: number;
  withdrawMin: number;
  withdrawDailyLimit: number;
  rechargeMax: number;
}

/** Pi's own desktop sandbox, which frames the app while it is developed. */
export const PI_SANDBOX_ORIGIN = 'https://sandbox.minepi.com';

export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export interface MediaConfig {
  imageMaxBytes: number;
  fileMaxBytes: number;
  voiceMaxBytes: number;
  videoMaxBytes: number;
  /** null: no daily limit. */
  dailyBytes: number | null;
  /** null: made at first start and kept in the data folder. */
  urlSecret: string | null;
  /** null: local disk. */
  s3: S3Config | null;
}

const MB = 1024 * 1024;

/** An IP address, a CIDR, or one of proxy-addr's names for private ranges. */
function isProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

export type TranslateProviderName = (typeof TRANSLATE_PROVIDER_NAMES)[number];

export interface TranslateConfig {
  openai: { url: string; apiKey: string | null; model: string } | null;
  libreTranslate: { url: string; apiKey: string | null } | null;
  apertium: { url: string } | null;
  /** Configured providers in the order they are tried (empty: translation unavailable). */
  order: TranslateProviderName[];
  timeoutMs: number;
  concurrency: number;
  dailyCharacters: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the configuration; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.SMTP_URL && !e.SMS_WEBHOOK_URL) {
    // Nobody could receive a code, so nobody could register or reset a password.
    throw new ConfigError(
      'Invalid configuration:\n  NODE_ENV is production but neither SMTP_URL nor SMS_WEBHOOK_URL is set: ' +
        'verification codes could not be sent to anyone (outside production they go to the dev outbox)',
    );
  }
  const production = e.NODE_ENV === 'production';
  if (production) refuseInProduction(e);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    devOutbox: e.DEV_OUTBOX,
    dataDir: resolve(process.cwd(), e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    production,
    logLevel: e.LOG_LEVEL,
    smtpUrl: e.SMTP_URL ?? null,
    smtpFrom: e.SMTP_FROM,
    smsWebhookUrl: e.SMS_WEBHOOK_URL ?? null,
    webDistDir: resolve(process.cwd(), e.WEB_DIST_DIR),
    // A map of every route helps whoever probes a public server more than its users.
    apiDocs: e.API_DOCS ?? !production,
    trustProxy: e.TRUST_PROXY,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    deviceLoginTtlSeconds: e.DEVICE_LOGIN_TTL_SECONDS,
    push: pushConfig(e),
    minimumClientVersion: e.MIN_CLIENT_VERSION ?? null,
    downloads: { android: e.DOWNLOAD_ANDROID_URL ?? null, ios: e.DOWNLOAD_IOS_URL ?? null },
    operatorEmail: e.OPERATOR_EMAIL ?? null,
    redisUrl: e.REDIS_URL ?? null,
    translate: translateConfig(e),
    media: mediaConfig(e),
    pi: piConfig(e, production),
    wallet: {
      withdrawFee: e.WALLET_WITHDRAW_FEE,
      withdrawMin: e.WALLET_WITHDRAW_MIN,
      withdrawDailyLimit: e.WALLET_WITHDRAW_DAILY_LIMIT,
      rechargeMax: e.WALLET_RECHARGE_MAX,
    },
    calls: callsConfig(e),
    socketLimits: {
      perSession: e.SOCKETS_PER_SESSION,
      perUser: e.SOCKETS_PER_USER,
      perAddress: e.SOCKETS_PER_ADDRESS,
      unauthenticatedPerAddress: e.UNAUTHED_SOCKETS_PER_ADDRESS,
    },
  };
}

/**
 * Settings that are fine on one's own machine and a hole on a public server: each one
 * stops the start with its reason.
 */
function refuseInProduction(e: z.infer<typeof envSchema>): void {
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

export interface PushConfig {
  vapid: { publicKey: string; privateKey: string } | null;
  subject: string;
  /** Null: any host. */
  hosts: string[] | null;
}

function pushConfig(e: z.infer<typeof envSchema>): PushConfig {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = e;
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all',
    );
  }
  const hosts = e.PUSH_HOSTS.split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  return {
    vapid: publicKey && privateKey ? { publicKey, privateKey } : null,
    subject: e.VAPID_SUBJECT,
    hosts: hosts.includes('*') ? null : hosts,
  };
}

function mediaConfig(e: z.infer<typeof envSchema>): MediaConfig {
  const s3Names = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const missing = s3Names.filter((name) => e[name] === undefined);
  if (e.S3_ENDPOINT && missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  S3_ENDPOINT is set but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not`,
    );
  }
  return {
    imageMaxBytes: e.MEDIA_IMAGE_MAX_MB * MB,
    fileMaxBytes: e.MEDIA_FILE_MAX_MB * MB,
    voiceMaxBytes: e.MEDIA_VOICE_MAX_MB * MB,
    videoMaxBytes: e.MEDIA_VIDEO_MAX_MB * MB,
    dailyBytes: e.MEDIA_DAILY_MB === 0 ? null : e.MEDIA_DAILY_MB * MB,
    urlSecret: e.MEDIA_URL_SECRET ?? null,
    s3: e.S3_ENDPOINT
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET!,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID!,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : null,
  };
}

function piConfig(e: z.infer<typeof envSchema>, production: boolean): PiConfig {
  if (production && (e.PI_SANDBOX || e.PI_SANDBOX_HOST_URL)) {
    throw new ConfigError(
      'Invalid configuration:\n  PI_SANDBOX and PI_SANDBOX_HOST_URL are for development: a production server talks to the real Pi',
    );
  }
  return {
    apiUrl: e.PI_API_URL,
    apiKey: e.PI_API_KEY ?? null,
    sdkUrl: e.PI_SDK_URL,
    sandbox: e.PI_SANDBOX,
    sandboxHostUrl: e.PI_SANDBOX_HOST_URL ?? null,
    walletSecret: e.PI_WALLET_SECRET ?? null,
    horizonUrl:
      e.PI_HORIZON_URL ??
      (e.PI_SANDBOX ? 'https://api.testnet.minepi.com' : 'https://api.mainnet.minepi.com'),
  };
}

function translateConfig(e: z.infer<typeof envSchema>): TranslateConfig {
  const configured: Record<TranslateProviderName, boolean> = {
    openai: e.TRANSLATE_OPENAI_URL !== undefined,
    libretranslate: e.TRANSLATE_LIBRETRANSLATE_URL !== undefined,
    apertium: e.TRANSLATE_APERTIUM_URL !== undefined,
  };
  const wanted = e.TRANSLATE_PROVIDERS ?? TRANSLATE_PROVIDER_NAMES;
  const missing = wanted.filter((name) => !configured[name]);
  if (e.TRANSLATE_PROVIDERS && missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  TRANSLATE_PROVIDERS: ${missing.join(', ')} named but its URL is not set`,
    );
  }
  return {
    openai: e.TRANSLATE_OPENAI_URL
      ? {
          url: e.TRANSLATE_OPENAI_URL,
          apiKey: e.TRANSLATE_OPENAI_KEY ?? null,
          model: e.TRANSLATE_OPENAI_MODEL,
        }
      : null,
    libreTranslate: e.TRANSLATE_LIBRETRANSLATE_URL
      ? { url: e.TRANSLATE_LIBRETRANSLATE_URL, apiKey: e.TRANSLATE_LIBRETRANSLATE_KEY ?? null }
      : null,
    apertium: e.TRANSLATE_APERTIUM_URL ? { url: e.TRANSLATE_APERTIUM_URL } : null,
    order: [...new Set(wanted)].filter((name) => configured[name]),
    timeoutMs: e.TRANSLATE_TIMEOUT_MS,
    concurrency: e.TRANSLATE_CONCURRENCY,
    dailyCharacters: e.TRANSLATE_DAILY_CHARACTERS,
  };
}

/** Calls' media servers: STUN and TURN for one-to-one calls, Janus for group calls. */
export interface CallsConfig {
  ice: IceConfig;
  /** Null: group calls ring and are answered, but have no SFU room to meet in. */
  janus: { url: string; publicUrl: string; roomAdminKey: string | null } | null;
}

function callsConfig(e: z.infer<typeof envSchema>): CallsConfig {
  if (e.TURN_URLS.length > 0 && e.TURN_SECRET === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  TURN_URLS needs TURN_SECRET (the static-auth-secret coturn shares)',
    );
  }
  return {
    ice: {
      stunUrls: e.STUN_URLS,
      turnUrls: e.TURN_URLS,
      turnSecret: e.TURN_SECRET ?? null,
      turnTtlSeconds: e.TURN_TTL_SECONDS,
    },
    janus: e.JANUS_URL
      ? {
          url: e.JANUS_URL.replace(/\/+$/, ''),
          publicUrl: e.JANUS_PUBLIC_URL ?? e.JANUS_URL,
          roomAdminKey: e.JANUS_ROOM_ADMIN_KEY ?? null,
        }
      : null,
  };
}
