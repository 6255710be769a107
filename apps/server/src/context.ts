import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { appWalletOf } from './modules/payments/app-wallet.js';
import { buildInfrastructure } from './context-infrastructure.js';
import { migrateToLatest, openDatabase, type Dialect } from './db/database.js';
import type { Db } from './db/schema.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createLogger } from './logging.js';
import { PasswordHasher, type PasswordHashingOptions } from './lib/passwords.js';
import { IpCountryTable } from './lib/ip-country.js';
import { CodeRepo, SessionRepo } from './modules/auth/repo.js';
import { AuthService } from './modules/auth/service.js';
import { Ledger } from './modules/ledger/ledger.js';
import { WalletService } from './modules/wallet/service.js';
import { PiPlatform } from './modules/pi/platform.js';
import { PiService } from './modules/pi/service.js';
import { Horizon } from './modules/payments/horizon.js';
import { RechargeService } from './modules/payments/recharge.js';
import { WithdrawService } from './modules/payments/withdraw.js';
import { MoneyService } from './modules/money/service.js';
import { NftService } from './modules/nft/service.js';
import { GrowthService } from './modules/growth/service.js';
import { LandingService } from './modules/landing/service.js';
import { Jobs } from './modules/jobs/jobs.js';
import { Rankings } from './modules/growth/rankings.js';
import { GrowthSettingsStore } from './modules/growth/settings.js';
import { CodeService } from './modules/auth/codes.js';
import { ContactRepo } from './modules/contacts/repo.js';
import { ContactService } from './modules/contacts/service.js';
import { EventService } from './modules/events/service.js';
import { GroupDirectory } from './modules/groups/directory.js';
import { GroupRepo } from './modules/groups/repo.js';
import { GroupMembership } from './modules/messages/membership.js';
import { GroupService } from './modules/groups/service.js';
import { MessageRepo } from './modules/messages/repo.js';
import { MessageSearch } from './modules/messages/search.js';
import { MessageService } from './modules/messages/service.js';
import { SessionService } from './modules/auth/sessions.js';
import { DeviceLoginService } from './modules/devices/service.js';
import { WebPushSender, type PushSender } from './modules/push/sender.js';
import { PushService } from './modules/push/service.js';
import { CallRepo } from './modules/calls/repo.js';
import { CallService } from './modules/calls/service.js';
import { configuredSfu, type Sfu } from './modules/calls/janus.js';
import { ServerFlags } from './modules/meta/flags.js';
import { loadVapidKeys } from './modules/push/vapid.js';
import { FileStore } from './modules/files/store.js';
import type { RateLimiter } from './modules/limits/limiter.js';
import type { LimitName, RateRule } from './modules/limits/rules.js';
import type { DevOutbox } from './modules/notify/outbox.js';
import type { EmailProvider, SmsProvider } from './modules/notify/providers.js';
import type { NotifyService } from './modules/notify/service.js';
import type { TranslationProvider } from './modules/translation/providers/provider.js';
import { ChineseScripts } from './modules/translation/chinese.js';
import { LanguageDetector } from './modules/translation/detect.js';
import { TranslationRepo } from './modules/translation/repo.js';
import type { RunnerOptions } from './modules/translation/runner.js';
import { TranslationService } from './modules/translation/service.js';
import {
  configuredProviders,
  createTranslator,
  leaseFor,
  runnerOptions,
} from './modules/translation/setup.js';
import { MediaRepo } from './modules/media/repo.js';
import { MediaService, mediaUrlSecret } from './modules/media/service.js';
import { openMediaStorage, type MediaStorage } from './modules/media/storage.js';
import { Uploads } from './modules/media/uploads.js';
import { UserRepo } from './modules/users/repo.js';
import { UserService } from './modules/users/service.js';
import { InviteeDirectory } from './modules/users/invitees.js';
import type { Bus } from './realtime/bus.js';
import { DEFAULT_SOCKET_TIMINGS, type SocketTimings } from './realtime/gateway.js';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from './realtime/limits.js';
import { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from './http/timeouts.js';
import type { NodeHub } from './realtime/node-hub.js';
import { SecurityActivityLog } from './modules/security/activity.js';
import { AttemptCounters } from './modules/security/attempt-counters.js';
import { SecurityService } from './modules/security/service.js';
import { StepUpRule } from './modules/security/step-up.js';

/** Everything the server runs on, built once at start (tests build their own). */
export interface AppContext {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Db;
  dialect: Dialect;
  files: FileStore;
  /** Frames to users' open sockets: this node's, and through the bus every other node's. */
  hub: NodeHub;
  /** Between server nodes: in-process, or Redis pub/sub when REDIS_URL is set. */
  bus: Bus;
  socketTimings: SocketTimings;
  /** Every rate limit, HTTP and socket alike (in Redis across nodes when REDIS_URL is set). */
  limits: RateLimiter;
  socketLimits: SocketLimits;
  serverTimeouts: ServerTimeouts;
  /** Codes of channels without a provider, for this machine only; null in production or when every channel has a provider. */
  outbox: DevOutbox | null;
  /** Resumable uploads of media, staged on this node. */
  uploads: Uploads;
  services: {
    notify: NotifyService;
    sessions: SessionService;
    codes: CodeService;
    users: UserService;
    auth: AuthService;
    events: EventService;
    contacts: ContactService;
    messages: MessageService;
    groups: GroupService;
    translations: TranslationService;
    scripts: ChineseScripts;
    media: MediaService;
    pi: PiService;
    ledger: Ledger;
    wallets: WalletService;
    recharges: RechargeService;
    withdrawals: WithdrawService;
    money: MoneyService;
    nfts: NftService;
    growth: GrowthService;
    landing: LandingService;
    deviceLogins: DeviceLoginService;
    push: PushService;
    calls: CallService;
    flags: ServerFlags;
    stepUp: StepUpRule;
    security: SecurityService;
    securityActivity: SecurityActivityLog;
  };
  /** Work due later (mining ends, ranking rewards), run by `runDue` on a timer in main. */
  jobs: Jobs;
  /** Brings the database schema up to date. */
  migrate(): Promise<void>;
  /** Closes the bus and the database; the HTTP server is closed by its owner first. */
  close(): Promise<void>;
}

/** Replacements for tests: a movable clock, fake providers, a quiet logger, cheaper hashing. */
export interface ContextOverrides {
  clock?: Clock;
  logger?: Logger;
  /** null forces "no provider" even if the config names one. */
  email?: EmailProvider | null;
  sms?: SmsProvider | null;
  passwordHashing?: PasswordHashingOptions;
  /** Shorter socket timers. */
  socketTimings?: Partial<SocketTimings>;
  /** Smaller socket caps and send queue. */
  socketLimits?: Partial<SocketLimits>;
  /** Shorter HTTP server timeouts. */
  serverTimeouts?: Partial<ServerTimeouts>;
  /** A bus shared with other in-process nodes. */
  bus?: Bus;
  /** Translation providers in place of the configured ones ([]: none). */
  translationProviders?: TranslationProvider[];
  /** Faster retries and batching for tests. */
  translationRunner?: Partial<RunnerOptions>;
  /** A language detector in place of the default one. */
  detector?: LanguageDetector;
  /** Media storage in place of the configured one. */
  mediaStorage?: MediaStorage;
  /** A shorter wait for Pi's Platform API than the spec's 20 s. */
  piTimeoutMs?: number;
  /** Web Push through something else than the push services' HTTP protocol. */
  pushSender?: PushSender;
  /** Group call rooms somewhere else than the configured Janus (null: none). */
  sfu?: Sfu | null;
  /** Prefix of the ranking sets in Redis (tests sharing one Redis each take their own). */
  rankingsPrefix?: string;
  /** Other rate limits: a scale in place of RATE_LIMIT_SCALE, and replaced rules. */
  rateLimits?: { scale?: number; rules?: Partial<Record<LimitName, RateRule>> };
}

export function createContext(config: Config, overrides: ContextOverrides = {}): AppContext {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const { db, dialect, close: closeDatabase } = openDatabase(config);
  const files = new FileStore(join(config.dataDir, 'files'));
  const passwords = new PasswordHasher(overrides.passwordHashing);
  const { outbox, notify, bus, limits, hub, presence } = buildInfrastructure(
    config,
    overrides,
    logger,
    clock,
  );
  const events = new EventService({ db, clock, hub });
  const places = new IpCountryTable();
  const sessions = new SessionService(db, new SessionRepo(db), clock);
  // A revoked session's sockets are closed wherever they are (kicked offline).
  sessions.onRevoke((revocation) => hub.kick(revocation));
  const activity = new SecurityActivityLog({ db, clock, places, events });
  const stepUp = new StepUpRule({ sessions, clock });
  const users = new UserService({
    db,
    repo: new UserRepo(db),
    sessions,
    files,
    passwords,
    clock,
    stepUp,
    activity,
  });
  const codes = new CodeService({ db, repo: new CodeRepo(db), users, notify, clock, logger });
  const auth = new AuthService({ db, users, sessions, codes, passwords, activity });
  const ledger = new Ledger({ clock });
  const platform = config.pi.apiKey
    ? new PiPlatform({
        baseUrl: config.pi.apiUrl,
        apiKey: config.pi.apiKey,
        timeoutMs: overrides.piTimeoutMs,
      })
    : null;
  const pi = new PiService({
    db,
    users,
    auth,
    codes,
    passwords,
    platform,
    settings: config.pi,
    clock,
    logger,
    activity,
  });
  const wallets = new WalletService({
    db,
    ledger,
    passwords,
    codes,
    users,
    clock,
    stepUp,
    activity,
  });
  const horizon = platform
    ? new Horizon(config.pi.horizonUrl, { timeoutMs: overrides.piTimeoutMs })
    : null;
  const appWallet = config.pi.walletSecret ? appWalletOf(config.pi.walletSecret) : null;
  const recharges = new RechargeService({
    db,
    ledger,
    users,
    wallets,
    platform,
    horizon,
    appAddress: appWallet?.publicKey() ?? null,
    rechargeMax: config.wallet.rechargeMax,
    clock,
    logger,
  });
  const jobs = new Jobs({ db, clock, logger });
  const withdrawals = new WithdrawService({
    db,
    ledger,
    users,
    wallets,
    jobs,
    payout: platform && horizon && appWallet ? { platform, horizon, wallet: appWallet } : null,
    config: config.wallet,
    clock,
    logger,
    stepUp,
    activity,
  });
  const contacts = new ContactService({ db, repo: new ContactRepo(db), users, events, clock });
  const detector = overrides.detector ?? new LanguageDetector();
  const scripts = new ChineseScripts();
  const groupRepo = new GroupRepo(db);
  const media = new MediaService({
    db,
    repo: new MediaRepo(db, dialect),
    storage: overrides.mediaStorage ?? openMediaStorage(config.media.s3, config.dataDir),
    clock,
    config: config.media,
    secret: mediaUrlSecret(config.media.urlSecret, config.dataDir),
  });
  const uploads = new Uploads({ media, dataDir: config.dataDir, logger });
  const messages = new MessageService({
    db,
    repo: new MessageRepo(db),
    search: new MessageSearch(db, dialect),
    groups: new GroupDirectory(groupRepo),
    users,
    clock,
    hub,
    events,
    contacts,
    files,
    detector,
    scripts,
    limits,
    media,
  });
  const runner = runnerOptions(config.translate, overrides.translationRunner);
  const translations = new TranslationService({
    repo: new TranslationRepo(db),
    clock,
    hub,
    messages,
    users,
    detector,
    scripts,
    translator: createTranslator(
      overrides.translationProviders ?? configuredProviders(config.translate),
      runner,
      scripts,
    ),
    logger,
    dailyCharacters: config.translate.dailyCharacters,
    leaseMs: leaseFor(runner),
  });
  // Group frames reach this node's connected users who are members, found in one look-up
  // with where each one's history starts; a translation only those who read the
  // conversation in its language.
  hub.setMemberFilter((conversationId, userIds, audience) =>
    audience
      ? translations.readersOf(conversationId, userIds, audience)
      : messages.readersAmong(conversationId, userIds),
  );
  // Translations start once messages are delivered, never before.
  messages.onSent((sent) => translations.messagesSent(sent));
  const vapid = loadVapidKeys(config.push.vapid, config.dataDir);
  const push = new PushService({
    db,
    clock,
    logger,
    sender: overrides.pushSender ?? new WebPushSender(vapid, config.push.subject),
    publicKey: vapid.publicKey,
    hosts: config.push.hosts,
    online: (userId, sessionId) => hub.isSessionOnline(userId, sessionId),
    users,
    groups: () => groups,
    stepUp,
    activity,
  });
  messages.onSent((sent) => push.messagesSent(sent));
  events.onPublished((published) => push.eventsPublished(published));
  messages.onRemoved((removed) => translations.messagesRemoved(removed));
  messages.onRemoved((removed) => {
    media.messagesRemoved(removed).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not remove the media of removed messages');
    });
  });
  hub.onMembersReached((conversationId, frames, userIds) =>
    translations.membersReached(conversationId, frames, userIds),
  );
  const groups = new GroupService({
    db,
    repo: groupRepo,
    members: new GroupMembership(db),
    clock,
    events,
    messages,
    contacts,
    files,
  });

  const security = new SecurityService({
    db,
    clock,
    logger,
    rule: stepUp,
    activity,
    sessions,
    users,
    codes,
    wallets,
    pi,
    notify,
    undoLink: (token) => `${config.publicUrl}/#/security/undo?token=${token}`,
  });

  const calls = new CallService({
    repo: new CallRepo(db),
    clock,
    logger,
    hub,
    online: (userId, sessionId) => hub.isSessionOnline(userId, sessionId),
    messages,
    contacts,
    groups,
    push,
    sfu: overrides.sfu !== undefined ? overrides.sfu : configuredSfu(config.calls.janus),
    ice: config.calls.ice,
  });
  // A device that went away mid-call is taken as lost (CallService.sessionGone).
  hub.onSessionGone((userId, sessionId) => calls.sessionGone(userId, sessionId));
  // Its own connection: a slow ranking rebuild never queues behind rate-limit checks.
  const rankingsRedis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1 })
    : null;
  // Failed commands are logged where they fail (rankings answer from SQL meanwhile).
  rankingsRedis?.on('error', () => undefined);
  const growth = new GrowthService({
    db,
    clock,
    ledger,
    users,
    invitees: new InviteeDirectory(),
    events,
    rankings: new Rankings({
      db,
      redis: rankingsRedis,
      logger,
      prefix: overrides.rankingsPrefix ?? 'teltlk:rank:',
    }),
    jobs,
    settings: new GrowthSettingsStore({ db, clock }),
    platform,
    logger,
  });

  return {
    config,
    logger,
    clock,
    db,
    dialect,
    files,
    jobs,
    hub,
    bus,
    socketTimings: { ...DEFAULT_SOCKET_TIMINGS, ...overrides.socketTimings },
    limits,
    socketLimits: { ...DEFAULT_SOCKET_LIMITS, ...config.socketLimits, ...overrides.socketLimits },
    serverTimeouts: { ...DEFAULT_SERVER_TIMEOUTS, ...overrides.serverTimeouts },
    outbox,
    uploads,
    services: {
      notify,
      sessions,
      codes,
      users,
      auth,
      events,
      contacts,
      messages,
      groups,
      translations,
      scripts,
      media,
      pi,
      ledger,
      wallets,
      recharges,
      withdrawals,
      money: new MoneyService({ db, ledger, wallets, messages, clock, stepUp }),
      nfts: new NftService({ db, ledger, files, wallets, messages, clock, stepUp }),
      growth,
      landing: new LandingService({ db, clock, notify, operatorEmail: config.operatorEmail }),
      deviceLogins: new DeviceLoginService({
        db,
        clock,
        auth,
        users,
        wallets,
        stepUp,
        activity,
        attempts: new AttemptCounters({ db, clock }),
        changed: (id) => hub.ticketChanged(id),
        places,
        ttlMs: config.deviceLoginTtlSeconds * 1000,
      }),
      push,
      calls,
      flags: new ServerFlags({
        db,
        clock,
        minimumClientVersion: config.minimumClientVersion,
      }),
      stepUp,
      security,
      securityActivity: activity,
    },
    migrate: () => migrateToLatest(db, dialect),
    close: async () => {
      await bus.close();
      await limits.close();
      rankingsRedis?.disconnect();
      presence?.close();
      // Call records of calls that just ended are written before messages drain.
      await calls.close();
      // Sends already received are written (or refused) before the database goes.
      await messages.drain();
      await media.drain();
      await codes.drain();
      await security.drain();
      await push.drain();
      await detector.close();
      await scripts.close();
      // Translations under way are left: their claims lapse and the next reader asks again.
      await closeDatabase();
    },
  };
}
