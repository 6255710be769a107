import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CONTACT_EMAIL, DEVICE_LOGIN_TTL_SECONDS, toUnits } from '@teltlk/protocol';
import { DEFAULT_SOCKET_LIMITS } from './realtime/limits.js';

/**
 * The environment variables the server reads, each with its check and default: parsing
 * only; what they become is config.ts's, and what production refuses config-production.ts's.
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

/** Translation providers, in the order they are tried unless TRANSLATE_PROVIDERS says otherwise. */
export const TRANSLATE_PROVIDER_NAMES = ['openai', 'libretranslate', 'apertium'] as const;

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
  /** Calls' media always through TURN, never directly: neither side learns the other's address. */
  TURN_RELAY_ONLY: booleanFlag.default(false),
  /** Janus's HTTP API as the server reaches it (`http://127.0.0.1:8088/janus`); unset: no group call rooms. */
  JANUS_URL: urlWithScheme(['http', 'https']).optional(),
  /** Janus as browsers reach it (its public WebSocket or HTTPS address); unset: JANUS_URL. */
  JANUS_PUBLIC_URL: urlWithScheme(['http', 'https', 'ws', 'wss']).optional(),
  /** The VideoRoom plugin's `admin_key`, which creating rooms needs. */
  JANUS_ROOM_ADMIN_KEY: z.string().min(8).max(200).optional(),
});

/** Every environment variable the server reads (the README's configuration table lists them). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

/** The environment as parsed: every variable checked, defaults filled in. */
export type Env = z.infer<typeof envSchema>;

export type TrustProxy = false | number | string[];

export type TranslateProviderName = (typeof TRANSLATE_PROVIDER_NAMES)[number];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function parseEnv(env: Record<string, string | undefined>): Env {
  // An empty variable means "not set", as in most shells' `VAR= command`.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** An IP address, a CIDR, or one of proxy-addr's names for private ranges. */
function isProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}
