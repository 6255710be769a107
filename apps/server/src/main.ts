import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createContext } from './context.js';
import { DAY, HOUR, MINUTE, SECOND } from './lib/clock.js';

/** Gives in-flight requests this long to finish on shutdown before exiting anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How long the start-up report waits for translation engines to list their pairs. */
const TRANSLATION_REPORT_TIMEOUT_MS = 5_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }

  const ctx = createContext(config);
  await ctx.migrate();
  const app = await buildApp(ctx);
  // Chinese script tables take most of a second to build: before the first reader, not
  // in front of the first Chinese message.
  await ctx.services.scripts.preload();
  await app.listen({ port: config.port, host: config.host });

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const withoutProvider = ctx.services.notify.channelsWithoutProvider();
  if (withoutProvider.length > 0 && config.production) {
    ctx.logger.warn(
      { channels: withoutProvider },
      'no provider configured: verification codes by these channels are refused',
    );
  } else if (withoutProvider.length > 0 && ctx.outbox) {
    console.log(
      `No provider for ${withoutProvider.join(' or ')}: those verification codes go to the dev outbox, ` +
        `http://localhost:${port}/dev/outbox, readable on this machine only (DEV_OUTBOX=true)`,
    );
  } else if (withoutProvider.length > 0) {
    console.log(
      `No provider for ${withoutProvider.join(' or ')} and the dev outbox is off: nobody can get those ` +
        'verification codes. Set SMTP_URL or SMS_WEBHOOK_URL, or DEV_OUTBOX=true to read them on this machine.',
    );
  }
  // Calls work without media servers on one network (host candidates), and say so.
  const { ice, janus } = config.calls;
  if (ice.turnSecret === null || ice.turnUrls.length === 0) {
    ctx.logger.warn(
      'no TURN configured (TURN_URLS, TURN_SECRET): calls connect only where browsers reach each other directly (host candidates)',
    );
  }
  if (!janus) {
    ctx.logger.warn(
      'no Janus configured (JANUS_URL): group calls ring, but have no room to meet in',
    );
  }
  // Asked after listening, so a slow engine delays no request; awaited (within a bound)
  // so that its lines come before the address.
  await ctx.services.translations.report(AbortSignal.timeout(TRANSLATION_REPORT_TIMEOUT_MS)).then(
    (lines) => lines.forEach((line) => console.log(line)),
    (error: unknown) => ctx.logger.warn({ err: error }, 'could not report translation'),
  );
  // Last, so the address to open is the line the person running it sees at the bottom.
  console.log(`Teltlk is running at http://localhost:${port}`);

  const housekeeping = setInterval(() => {
    const { codes, sessions, deviceLogins } = ctx.services;
    Promise.all([
      codes.purge(),
      sessions.purge(),
      deviceLogins.purge(),
      ctx.uploads.removeExpired(),
      ctx.services.media.sweep(),
      ctx.jobs.purge(40 * DAY),
    ]).catch((error: unknown) => ctx.logger.warn({ err: error }, 'housekeeping failed'));
  }, HOUR);
  housekeeping.unref();
  // Burnt messages are already left out of every read; this only reclaims their rows.
  const burning = setInterval(() => {
    ctx.services.messages
      .purgeBurnt()
      .catch((error: unknown) => ctx.logger.warn({ err: error }, 'burnt message cleanup failed'));
  }, MINUTE);
  burning.unref();
  // Recharges a crash or an unreachable Pi left open are finished, and red envelopes past
  // their time refunded, at start and then each minute.
  const settlePayments = () => {
    const { recharges, money } = ctx.services;
    Promise.all([recharges.sweep(), money.refundExpired()]).catch((error: unknown) =>
      ctx.logger.warn({ err: error }, 'payment sweep failed'),
    );
  };
  settlePayments();
  const payments = setInterval(settlePayments, MINUTE);
  payments.unref();
  // Mining sessions that ended are settled (with their reminders), the rewards of closed
  // ranking periods credited, pending withdrawals taken on and Pi's open payments checked:
  // jobs in the database, so a restart loses none, and each runs on one node at a time.
  const runJobs = () => {
    const { growth, withdrawals } = ctx.services;
    growth
      .scheduleRewards()
      .then(() => withdrawals.scheduleReconcile())
      .then(() => ctx.jobs.runDue())
      .catch((error: unknown) => ctx.logger.warn({ err: error }, 'jobs failed'));
  };
  // What a crash cut short is taken on at once, not after its retry's wait.
  await ctx.services.withdrawals
    .resume()
    .catch((error: unknown) => ctx.logger.warn({ err: error }, 'withdrawals not resumed'));
  runJobs();
  const jobTimer = setInterval(runJobs, 30 * SECOND);
  jobTimer.unref();

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, 'shutting down');
    clearInterval(housekeeping);
    clearInterval(burning);
    clearInterval(payments);
    clearInterval(jobTimer);
    setTimeout(() => {
      ctx.logger.error('shutdown took too long, exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    // Closing the app closes its sockets (1001, going away); ctx.close then the bus and database.
    app
      .close()
      .then(() => ctx.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        ctx.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error('Teltlk failed to start:', error);
  process.exit(1);
});
