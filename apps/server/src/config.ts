import { resolve } from 'node:path';
import { parseEnv, type Env, type TrustProxy } from './config-env.js';
import {
  callsConfig,
  mediaConfig,
  piConfig,
  pushConfig,
  translateConfig,
  type CallsConfig,
  type MediaConfig,
  type PiConfig,
  type PushConfig,
  type TranslateConfig,
  type WalletConfig,
} from './config-sections.js';
import { refuseInProduction } from './config-production.js';
import type { SocketLimits } from './realtime/limits.js';

/**
 * The server's whole configuration, read from environment variables here and nowhere else.
 * Every variable is optional; the defaults run one machine with nothing else installed.
 * The variables and their checks are in config-env.ts, the sections made of several in
 * config-sections.ts, and what production refuses in config-production.ts.
 */

export {
  CONFIG_VARIABLES,
  ConfigError,
  type TranslateProviderName,
  type TrustProxy,
} from './config-env.js';
export {
  PI_SANDBOX_ORIGIN,
  type CallsConfig,
  type MediaConfig,
  type PiConfig,
  type PushConfig,
  type S3Config,
  type TranslateConfig,
  type WalletConfig,
} from './config-sections.js';

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
  logLevel: Env['LOG_LEVEL'];
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
  calls: CallsConfig;
  /** Caps on sockets per session, user and client address (per node). */
  socketLimits: Pick<
    SocketLimits,
    'perSession' | 'perUser' | 'perAddress' | 'unauthenticatedPerAddress'
  >;
}

/** Reads the configuration; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const e = parseEnv(env);
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
