import type { IceConfig } from './modules/calls/ice.js';
import {
  ConfigError,
  TRANSLATE_PROVIDER_NAMES,
  type Env,
  type TranslateProviderName,
} from './config-env.js';

/** The parts of the configuration that take more than a variable each, with their checks. */

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

export interface PushConfig {
  vapid: { publicKey: string; privateKey: string } | null;
  subject: string;
  /** Null: any host. */
  hosts: string[] | null;
}

export function pushConfig(e: Env): PushConfig {
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

export function mediaConfig(e: Env): MediaConfig {
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

export function piConfig(e: Env, production: boolean): PiConfig {
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

export function translateConfig(e: Env): TranslateConfig {
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

export function callsConfig(e: Env): CallsConfig {
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
      relayOnly: e.TURN_RELAY_ONLY,
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
