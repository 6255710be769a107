import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { ContextOverrides } from './context.js';
import type { Clock } from './lib/clock.js';
import {
  MemoryLimiterStore,
  RateLimiter,
  RedisLimiterStore,
  type LimiterStore,
} from './modules/limits/limiter.js';
import { DevOutbox } from './modules/notify/outbox.js';
import { smtpEmailProvider, webhookSmsProvider } from './modules/notify/providers.js';
import { NotifyService } from './modules/notify/service.js';
import { createBus } from './realtime/bus.js';
import { NodeHub } from './realtime/node-hub.js';
import { SessionPresence } from './realtime/presence.js';

/**
 * What the modules reach people and other nodes through, built before them: email and SMS
 * (or the dev outbox), the bus between nodes, rate limits, and the hub of open sockets
 * with, across nodes, their sessions' presence.
 */
export function buildInfrastructure(
  config: Config,
  overrides: ContextOverrides,
  logger: Logger,
  clock: Clock,
) {
  const email =
    overrides.email !== undefined
      ? overrides.email
      : config.smtpUrl
        ? smtpEmailProvider(config.smtpUrl, config.smtpFrom)
        : null;
  const sms =
    overrides.sms !== undefined
      ? overrides.sms
      : config.smsWebhookUrl
        ? webhookSmsProvider(config.smsWebhookUrl)
        : null;

  // Only when asked for (never in production: the config refuses it), and only while a
  // channel has no provider.
  const outbox = config.devOutbox && !(email && sms) ? new DevOutbox() : null;
  const notify = new NotifyService({ email, sms, outbox, logger, clock });
  const bus = overrides.bus ?? createBus(config.redisUrl, logger);
  const limiterStore: LimiterStore = config.redisUrl
    ? new RedisLimiterStore(new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }), logger)
    : new MemoryLimiterStore();
  const limits = new RateLimiter({
    store: limiterStore,
    clock,
    scale: overrides.rateLimits?.scale ?? config.rateLimitScale,
    rules: overrides.rateLimits?.rules,
  });
  const hub = new NodeHub(bus);
  const presence = config.redisUrl
    ? new SessionPresence(
        new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }),
        () => hub.localSessions(),
        logger,
      )
    : null;
  if (presence) hub.setPresence(presence);
  return { outbox, notify, bus, limits, hub, presence };
}
