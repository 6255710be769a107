import { cpus } from 'node:os';
import { benchDm, DM_DEFAULTS, type DmOptions } from './dm-throughput.js';
import {
  benchIdle,
  IDLE_DEFAULTS,
  openFileLimit,
  maxIdleSockets,
  type IdleOptions,
} from './idle-memory.js';
import { benchFirstSync, FIRST_SYNC_DEFAULTS, type FirstSyncOptions } from './first-sync.js';
import { benchGroup, GROUP_DEFAULTS, type GroupOptions } from './group-fanout.js';
import {
  benchLighthouse,
  LIGHTHOUSE_DEFAULTS,
  LIGHTHOUSE_PAGES,
  LIGHTHOUSE_TARGETS,
  type LighthousePage,
} from './lighthouse.js';
import { benchMediaUpload, MEDIA_DEFAULTS, type MediaOptions } from './media-upload.js';
import { benchSearch, SEARCH_DEFAULTS, SEARCH_QUERIES, type SearchOptions } from './search.js';
import { fixed } from './stats.js';
import {
  dmOk,
  firstSyncOk,
  groupOk,
  idleOk,
  mediaOk,
  persistenceOk,
  ledgerOk,
  rankingsOk,
  resultLine,
  searchOk,
  TARGETS,
  translationOk,
  webFirstLoadOk,
} from './targets.js';
import { benchPersistence, PERSISTENCE_DEFAULTS, type PersistenceOptions } from './persistence.js';
import { benchLedger, LEDGER_DEFAULTS, type LedgerOptions } from './ledger.js';
import { benchGrowth, GROWTH_DEFAULTS, type GrowthOptions } from './growth.js';
import { benchTranslation, TRANSLATION_DEFAULTS, type TranslationOptions } from './translation.js';
import {
  FIRST_LOAD_BUDGET_BYTES,
  FIRST_LOAD_DEFAULTS,
  type FirstLoadOptions,
  measureFirstLoad,
} from './web-first-load.js';

/**
 * Runs the benchmarks and prints one `RESULT` line each. Baselines are measured in the
 * same run (PERFORMANCE.md); ratios are what to compare between runs.
 *
 * Flags, after a build: `npm run bench -w @teltlk/bench -- --only=dm --seconds=5`
 *   --only=web,dm,idle   which benchmarks (default: all)
 *   --web-chats=3                                                    web first load
 *   --lighthouse-runs=3                                              sign-in and landing page audits
 *   --clients=32 --seconds=2 --warmup=0.5 --repeats=3 --window=8   messaging load
 *   --sockets=10000 --settle=2 --idle-repeats=1     idle sockets, one user each
 *   --group-members=100000 --group-sockets=5000 --group-accounts=1
 *   --group-messages=20 --group-repeats=3 --group-cpu-messages=20    group fan-out
 *   --persistence-messages=5000 --persistence-senders=64 --persistence-rounds=3   persistence
 *     (SQLite, and PostgreSQL at TEST_DATABASE_URL when set)
 *   --sync-chats=5000 --sync-messages=3 --sync-rounds=3                first sync
 *   --translation-members=40 --translation-group=100000 --translation-languages=5 --translation-offline=10
 *   --translation-messages=20 --translation-lookups=300              translation
 *   --media-clients=20 --media-repeats=5 --media-mb=4                  photo uploads
 *   --search-messages=1000000 --search-rounds=10                       message search
 *     (SQLite, and PostgreSQL at TEST_DATABASE_URL when set)
 *   --ledger-grabbers=1000 --ledger-shares=100 --ledger-transfers=2000 --ledger-rounds=3   ledger
 *     (SQLite, and PostgreSQL at TEST_DATABASE_URL when set)
 *   --growth-users=1000000 --growth-reads=2000 --growth-checkins=2000 --growth-rounds=3   rankings, check-ins
 *     (SQLite, and PostgreSQL at TEST_DATABASE_URL when set; Redis at TEST_REDIS_URL when set)
 */
const BENCHMARKS = [
  'web',
  'lighthouse',
  'dm',
  'persistence',
  'sync',
  'idle',
  'group',
  'translation',
  'media',
  'search',
  'ledger',
  'growth',
] as const;
type Benchmark = (typeof BENCHMARKS)[number];

const flags = new Map<string, string>();
for (const arg of process.argv.slice(2)) {
  const match = /^--([a-z-]+)=(.*)$/.exec(arg);
  if (!match) throw new Error(`unknown argument ${arg} (flags look like --name=value)`);
  flags.set(match[1]!, match[2]!);
}

/** Counts are whole numbers; durations (`seconds`) may have decimals. */
function numberFlag(name: string, fallback: number, kind: 'count' | 'seconds' = 'count'): number {
  const raw = flags.get(name);
  flags.delete(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (kind === 'count' && !Number.isInteger(value)))
    throw new Error(`--${name} must be a positive ${kind === 'count' ? 'whole number' : 'number'}`);
  return value;
}

const only = (flags.get('only') ?? BENCHMARKS.join(',')).split(',') as Benchmark[];
flags.delete('only');
for (const name of only)
  if (!BENCHMARKS.includes(name)) throw new Error(`--only: unknown benchmark ${name}`);

const dmOptions: DmOptions = {
  clients: numberFlag('clients', DM_DEFAULTS.clients),
  seconds: numberFlag('seconds', DM_DEFAULTS.seconds, 'seconds'),
  warmupSeconds: numberFlag('warmup', DM_DEFAULTS.warmupSeconds, 'seconds'),
  repeats: numberFlag('repeats', DM_DEFAULTS.repeats),
  window: numberFlag('window', DM_DEFAULTS.window),
};
const socketLimit = maxIdleSockets();
const socketsFlag = flags.has('sockets');
const idleOptions: IdleOptions = {
  sockets: numberFlag('sockets', Math.min(IDLE_DEFAULTS.sockets, socketLimit)),
  settleSeconds: numberFlag('settle', IDLE_DEFAULTS.settleSeconds, 'seconds'),
  repeats: numberFlag('idle-repeats', IDLE_DEFAULTS.repeats),
};
const groupOptions: GroupOptions = {
  members: numberFlag('group-members', GROUP_DEFAULTS.members),
  sockets: numberFlag('group-sockets', Math.min(GROUP_DEFAULTS.sockets, socketLimit)),
  accounts: numberFlag('group-accounts', GROUP_DEFAULTS.accounts),
  messages: numberFlag('group-messages', GROUP_DEFAULTS.messages),
  repeats: numberFlag('group-repeats', GROUP_DEFAULTS.repeats),
  cpuMessages: numberFlag('group-cpu-messages', GROUP_DEFAULTS.cpuMessages),
};
const translationOptions: TranslationOptions = {
  members: numberFlag('translation-members', TRANSLATION_DEFAULTS.members),
  groupSize: numberFlag('translation-group', TRANSLATION_DEFAULTS.groupSize),
  languages: numberFlag('translation-languages', TRANSLATION_DEFAULTS.languages),
  messages: numberFlag('translation-messages', TRANSLATION_DEFAULTS.messages),
  lookups: numberFlag('translation-lookups', TRANSLATION_DEFAULTS.lookups),
  offline: numberFlag('translation-offline', TRANSLATION_DEFAULTS.offline),
};
const persistenceOptions: PersistenceOptions = {
  messages: numberFlag('persistence-messages', PERSISTENCE_DEFAULTS.messages),
  senders: numberFlag('persistence-senders', PERSISTENCE_DEFAULTS.senders),
  rounds: numberFlag('persistence-rounds', PERSISTENCE_DEFAULTS.rounds),
  postgresUrl: process.env.TEST_DATABASE_URL ?? null,
};
const ledgerOptions: LedgerOptions = {
  grabbers: numberFlag('ledger-grabbers', LEDGER_DEFAULTS.grabbers),
  shares: numberFlag('ledger-shares', LEDGER_DEFAULTS.shares),
  transfers: numberFlag('ledger-transfers', LEDGER_DEFAULTS.transfers),
  rounds: numberFlag('ledger-rounds', LEDGER_DEFAULTS.rounds),
  postgresUrl: process.env.TEST_DATABASE_URL ?? null,
};
const growthOptions: GrowthOptions = {
  users: numberFlag('growth-users', GROWTH_DEFAULTS.users),
  reads: numberFlag('growth-reads', GROWTH_DEFAULTS.reads),
  checkins: numberFlag('growth-checkins', GROWTH_DEFAULTS.checkins),
  rounds: numberFlag('growth-rounds', GROWTH_DEFAULTS.rounds),
  postgresUrl: process.env.TEST_DATABASE_URL ?? null,
  redisUrl: process.env.TEST_REDIS_URL ?? null,
};
const firstLoadOptions: FirstLoadOptions = {
  chats: numberFlag('web-chats', FIRST_LOAD_DEFAULTS.chats),
};
const firstSyncOptions: FirstSyncOptions = {
  chats: numberFlag('sync-chats', FIRST_SYNC_DEFAULTS.chats),
  messages: numberFlag('sync-messages', FIRST_SYNC_DEFAULTS.messages),
  rounds: numberFlag('sync-rounds', FIRST_SYNC_DEFAULTS.rounds),
};
const mediaOptions: MediaOptions = {
  clients: numberFlag('media-clients', MEDIA_DEFAULTS.clients),
  repeats: numberFlag('media-repeats', MEDIA_DEFAULTS.repeats),
  photoBytes:
    numberFlag('media-mb', MEDIA_DEFAULTS.photoBytes / 1024 / 1024, 'seconds') * 1024 * 1024,
};
const searchOptions: SearchOptions = {
  messages: numberFlag('search-messages', SEARCH_DEFAULTS.messages),
  rounds: numberFlag('search-rounds', SEARCH_DEFAULTS.rounds),
  postgresUrl: process.env.TEST_DATABASE_URL ?? null,
};
const lighthouseRuns = numberFlag('lighthouse-runs', LIGHTHOUSE_DEFAULTS.runs);
if (flags.size > 0) throw new Error(`unknown flag --${[...flags.keys()][0]}`);

console.log(`cores=${cpus().length} node=${process.version} open_files=${openFileLimit()}`);
let failed = false;

/** Prints a benchmark's RESULT line; a missed target fails the run. */
function report(result: { line: string; ok: boolean }): void {
  console.log(result.line);
  if (!result.ok) failed = true;
}

if (only.includes('web')) {
  console.log(
    `web-first-load: a signed-in person with ${firstLoadOptions.chats} chats opens / in Chromium`,
  );
  try {
    const firstLoad = await measureFirstLoad(firstLoadOptions);
    for (const file of firstLoad.files)
      console.log(`  ${file.name} ${(file.gzipBytes / 1024).toFixed(1)} KB gz`);
    const kb = firstLoad.gzipBytes / 1024;
    console.log(
      `  ${firstLoad.files.length} scripts, ${kb.toFixed(1)} KB gzipped; ` +
        `${(firstLoad.transferredBytes / 1024).toFixed(1)} KB transferred (Brotli)`,
    );
    report(
      resultLine(
        'web-first-load',
        {
          ratio: (firstLoad.gzipBytes / FIRST_LOAD_BUDGET_BYTES).toFixed(3),
          gzip_kb: kb.toFixed(1),
          transferred_kb: (firstLoad.transferredBytes / 1024).toFixed(1),
          budget_kb: FIRST_LOAD_BUDGET_BYTES / 1024,
        },
        webFirstLoadOk(kb),
      ),
    );
  } catch (error) {
    failed = true;
    console.error(`web-first-load failed: ${(error as Error).message}`);
  }
}

if (only.includes('lighthouse')) {
  for (const page of Object.keys(LIGHTHOUSE_PAGES) as LighthousePage[]) {
    console.log(
      `lighthouse: ${page} (${LIGHTHOUSE_PAGES[page]}), mobile profile with simulated throttling, ${lighthouseRuns} cold runs`,
    );
    try {
      const { median: run, runs, ok } = await benchLighthouse({ runs: lighthouseRuns, page });
      console.log(`  performance per run ${runs.map((r) => r.performance).join(', ')}`);
      console.log(
        `  median run: FCP ${fixed(run.fcpMs, 0)} ms, LCP ${fixed(run.lcpMs, 0)} ms, ` +
          `TBT ${fixed(run.tbtMs, 0)} ms, CLS ${fixed(run.cls, 3)}, speed index ${fixed(run.speedIndexMs, 0)} ms, ` +
          `${fixed(run.transferBytes / 1024, 1)} KiB transferred`,
      );
      console.log(
        `  LCP element ${run.lcpElement}; host benchmark index ${fixed(run.benchmarkIndex, 0)}`,
      );
      for (const finding of run.performanceFindings) console.log(`  to improve: ${finding}`);
      for (const failure of run.accessibilityFailures) console.log(`  failed audit: ${failure}`);
      report(
        resultLine(
          'lighthouse',
          {
            page,
            perf: run.performance,
            a11y: run.accessibility,
            bp: run.bestPractices,
            seo: run.seo,
            fcp_ms: fixed(run.fcpMs, 0),
            lcp_ms: fixed(run.lcpMs, 0),
            tbt_ms: fixed(run.tbtMs, 0),
            transfer_kb: fixed(run.transferBytes / 1024, 1),
            target_perf: LIGHTHOUSE_TARGETS.performance,
            target_a11y: LIGHTHOUSE_TARGETS.accessibility,
            ...(page === 'landing'
              ? { target_bp: LIGHTHOUSE_TARGETS.bestPractices, target_seo: LIGHTHOUSE_TARGETS.seo }
              : {}),
          },
          ok,
        ),
      );
    } catch (error) {
      failed = true;
      console.error(`lighthouse ${page} failed: ${(error as Error).message}`);
    }
  }
}

if (only.includes('dm')) {
  console.log(
    `dm-throughput: ${dmOptions.clients} clients in pairs, window ${dmOptions.window}, ` +
      `${dmOptions.repeats} x ${dmOptions.seconds} s per load and target`,
  );
  try {
    const dm = await benchDm(dmOptions);
    console.log(
      `  teltlk ${fixed(dm.msgsPerS, 0)} msgs/s, ws ${fixed(dm.wsMsgsPerS, 0)} msgs/s (medians); ` +
        `at ${dm.pacedRate} msgs/s: teltlk p50=${fixed(dm.p50, 2)}ms p99=${fixed(dm.p99, 2)}ms, ` +
        `ws p50=${fixed(dm.wsP50, 2)}ms p99=${fixed(dm.wsP99, 2)}ms, p99 ratio ${fixed(dm.p99 / dm.wsP99, 2)}`,
    );
    report(
      resultLine(
        'dm-throughput',
        {
          ratio: fixed(dm.ratio, 3),
          msgs_per_s: fixed(dm.msgsPerS, 0),
          p99_ms: fixed(dm.p99, 2),
          ws_p99_ms: fixed(dm.wsP99, 2),
          target_ratio: TARGETS.dm.minRatio,
          target_p99: `${TARGETS.dm.maxP99VsWs}x_ws_and_${TARGETS.dm.maxP99Ms}ms`,
        },
        dmOk(dm),
      ),
    );
  } catch (error) {
    failed = true;
    console.error(`dm-throughput failed: ${(error as Error).message}`);
  }
}

if (only.includes('persistence')) {
  console.log(
    `persistence: ${persistenceOptions.senders} senders, ${persistenceOptions.rounds} x ` +
      `${persistenceOptions.messages} messages against as many single-row inserts`,
  );
  if (!persistenceOptions.postgresUrl)
    console.log('  PostgreSQL skipped: set TEST_DATABASE_URL to measure it too');
  try {
    for (const figures of await benchPersistence(persistenceOptions)) {
      console.log(
        `  ${figures.dialect}: ${fixed(figures.persistedPerS, 0)} msgs/s persisted, ` +
          `${fixed(figures.rawPerS, 0)} single-row inserts/s (medians)`,
      );
      report(
        resultLine(
          'persistence',
          {
            db: figures.dialect,
            ratio: fixed(figures.ratio, 3),
            persisted_per_s: fixed(figures.persistedPerS, 0),
            raw_per_s: fixed(figures.rawPerS, 0),
            target_ratio: TARGETS.persistence.minRatio,
          },
          persistenceOk(figures),
        ),
      );
    }
  } catch (error) {
    failed = true;
    console.error(`persistence failed: ${(error as Error).message}`);
  }
}

if (only.includes('ledger')) {
  console.log(
    `ledger: ${ledgerOptions.grabbers} members opening a ${ledgerOptions.shares}-share red envelope at once; ` +
      `${ledgerOptions.rounds} x ${ledgerOptions.transfers} transfers against as many single-row inserts`,
  );
  if (!ledgerOptions.postgresUrl)
    console.log('  PostgreSQL skipped: set TEST_DATABASE_URL to measure it too');
  try {
    for (const figures of await benchLedger(ledgerOptions)) {
      console.log(
        `  ${figures.dialect}: ${figures.grabsOk} of ${figures.grabbers} got a share; ` +
          `${fixed(figures.transfersPerS, 0)} transfers/s, ${fixed(figures.rawPerS, 0)} single-row inserts/s (medians)` +
          (figures.ledgerProblems.length > 0
            ? `; ledger: ${figures.ledgerProblems.join('; ')}`
            : ''),
      );
      report(
        resultLine(
          'ledger',
          {
            db: figures.dialect,
            ratio: fixed(figures.ratio, 3),
            grabs_ok: figures.grabsOk,
            ledger_problems: figures.ledgerProblems.length,
            transfers_per_s: fixed(figures.transfersPerS, 0),
            raw_per_s: fixed(figures.rawPerS, 0),
            target_ratio: TARGETS.ledger.minRatio,
            target_grabs: figures.shares,
          },
          ledgerOk(figures),
        ),
      );
    }
  } catch (error) {
    failed = true;
    console.error(`ledger failed: ${(error as Error).message}`);
  }
}

if (only.includes('sync')) {
  console.log(
    `first-sync: a new device of a user with ${firstSyncOptions.chats} chats of ` +
      `${firstSyncOptions.messages} messages, ${firstSyncOptions.rounds} rounds`,
  );
  try {
    const sync = await benchFirstSync(firstSyncOptions);
    console.log(
      `  ${sync.rows} conversations in ${sync.pages} pages: ${fixed(sync.syncMs, 0)} ms to the last ` +
        `row; the same list read raw ${fixed(sync.rawMs, 1)} ms (medians)`,
    );
    report(
      resultLine(
        'first-sync',
        {
          ms: fixed(sync.syncMs, 0),
          ratio: fixed(sync.syncMs / sync.rawMs, 1),
          raw_ms: fixed(sync.rawMs, 1),
          conversations: sync.rows,
          target_ms: TARGETS.firstSyncMs,
        },
        firstSyncOk(sync),
      ),
    );
  } catch (error) {
    failed = true;
    console.error(`first-sync failed: ${(error as Error).message}`);
  }
}

if (only.includes('search')) {
  console.log(
    `search: ${searchOptions.messages} messages in 2,000 chats, a fifth the searcher's; ` +
      `${SEARCH_QUERIES.length} searches in all chats and in one, ${searchOptions.rounds} rounds`,
  );
  try {
    for (const figures of await benchSearch(searchOptions)) {
      console.log(
        `  ${figures.dialect}: ${figures.searches} searches, p50 ${fixed(figures.p50, 1)} ms, ` +
          `p99 ${fixed(figures.p99, 1)} ms; without the index p99 ${fixed(figures.scanP99, 0)} ms`,
      );
      const { q, where, ms } = figures.slowest;
      console.log(`  slowest: "${q}" in ${where}, ${fixed(ms, 1)} ms`);
      report(
        resultLine(
          'search',
          {
            p99_ms: fixed(figures.p99, 1),
            messages: figures.messages,
            db: figures.dialect,
            p50_ms: fixed(figures.p50, 1),
            scan_p99_ms: fixed(figures.scanP99, 0),
            target_ms: TARGETS.searchP99Ms,
          },
          searchOk(figures),
        ),
      );
    }
  } catch (error) {
    failed = true;
    console.error(`search failed: ${(error as Error).message}`);
  }
}

if (only.includes('idle')) {
  const raise = `raise the open-file limit first, e.g. \`ulimit -n 65536\``;
  if (!socketsFlag && idleOptions.sockets < IDLE_DEFAULTS.sockets)
    console.log(
      `  the open-file limit allows ${Math.max(0, idleOptions.sockets)} sockets; for ${IDLE_DEFAULTS.sockets}, ${raise}`,
    );
  console.log(`idle-memory: ${idleOptions.sockets} authenticated idle sockets, one user each`);
  try {
    if (idleOptions.sockets < 1 || idleOptions.sockets > socketLimit)
      throw new Error(`${idleOptions.sockets} sockets do not fit the open-file limit: ${raise}`);
    const idle = await benchIdle(idleOptions);
    console.log(
      `  teltlk ${fixed(idle.kbPerSocket, 2)} KB, ws ${fixed(idle.wsKbPerSocket, 2)} KB per socket`,
    );
    report(
      resultLine(
        'idle-memory',
        {
          ratio: fixed(idle.ratio, 3),
          kb_per_socket: fixed(idle.kbPerSocket, 2),
          target_ratio: TARGETS.idle.maxRatio,
          target_kb: TARGETS.idle.maxKbPerSocket,
        },
        idleOk(idle),
      ),
    );
  } catch (error) {
    failed = true;
    console.error(`idle-memory failed: ${(error as Error).message}`);
  }
}

if (only.includes('group')) {
  console.log(
    `group-fanout: ${groupOptions.members} members, ${groupOptions.sockets} online, one user per socket, ` +
      `${groupOptions.repeats} x ${groupOptions.messages} messages of each kind`,
  );
  try {
    if (groupOptions.sockets > socketLimit)
      throw new Error(
        `${groupOptions.sockets} sockets do not fit the open-file limit: raise it first, e.g. \`ulimit -n 65536\``,
      );
    const group = await benchGroup(groupOptions);
    console.log(
      `  medians: accept group ${fixed(group.groupAcceptMs, 2)} ms, 1:1 ${fixed(group.singleAcceptMs, 2)} ms; ` +
        `every online socket has it p50=${fixed(group.p50, 1)}ms p99=${fixed(group.p99, 1)}ms; ` +
        `server CPU per message: group ${fixed(group.groupCpuMs, 1)} ms, 1:1 ${fixed(group.singleCpuMs, 1)} ms; ` +
        `populating took ${fixed(group.populateSeconds, 1)} s`,
    );
    report(
      resultLine(
        'group-fanout',
        {
          accept_ratio: fixed(group.acceptRatio, 3),
          p99_ms: fixed(group.p99, 0),
          online: group.online,
          members: group.members,
          target_accept_ratio: TARGETS.group.maxAcceptRatio,
          target_p99_ms: TARGETS.group.maxP99Ms,
        },
        groupOk(group),
      ),
    );
  } catch (error) {
    failed = true;
    console.error(`group-fanout failed: ${(error as Error).message}`);
  }
}

if (only.includes('translation')) {
  console.log(
    `translation: a group of ${translationOptions.groupSize} members, ${translationOptions.members + 1} online and ` +
      `${translationOptions.offline} offline asking on read, speaking ${translationOptions.languages} languages ` +
      `besides the sender's, ${translationOptions.messages} messages`,
  );
  try {
    const translation = await benchTranslation(translationOptions);
    console.log(
      `  stored translation lookup ${fixed(translation.cachedUs, 0)} us, reading the message ` +
        `${fixed(translation.baselineUs, 0)} us (medians over HTTP), ratio ${fixed(translation.cachedUs / translation.baselineUs, 2)}`,
    );
    report(
      resultLine(
        'translation',
        {
          calls_per_message: fixed(translation.callsPerMessage, 2),
          languages: translation.languages,
          members: translation.members,
          cached_us: fixed(translation.cachedUs, 0),
          target_calls_per_message: translation.languages,
        },
        translationOk(translation),
      ),
    );
  } catch (error) {
    failed = true;
    console.error(`translation failed: ${(error as Error).message}`);
  }
}

if (only.includes('media')) {
  console.log(
    `media-upload: ${mediaOptions.clients} people each send a ${fixed(mediaOptions.photoBytes / 1024 / 1024, 0)} MB ` +
      `phone photo at once (tus, 1 MB chunks), ${mediaOptions.repeats} rounds`,
  );
  try {
    const media = await benchMediaUpload(mediaOptions);
    console.log(
      `  server ${fixed(media.serverCpuMsPerPhoto, 0)} ms CPU per photo, sharp's thumbnail alone ` +
        `${fixed(media.baselineCpuMsPerPhoto, 0)} ms (photos of ${fixed(media.photoBytes / 1024 / 1024, 1)} MB); ` +
        `upload start to the recipient's message p50=${fixed(media.p50, 0)}ms p99=${fixed(media.p99, 0)}ms`,
    );
    report(
      resultLine(
        'media-upload',
        {
          ratio: fixed(media.ratio, 2),
          server_cpu_ms: fixed(media.serverCpuMsPerPhoto, 0),
          baseline_cpu_ms: fixed(media.baselineCpuMsPerPhoto, 0),
          p99_ms: fixed(media.p99, 0),
          target_ratio: TARGETS.media.maxRatio,
        },
        mediaOk(media),
      ),
    );
  } catch (error) {
    failed = true;
    console.error(`media-upload failed: ${(error as Error).message}`);
  }
}

if (only.includes('growth')) {
  console.log(
    `growth: ${growthOptions.users} people on the rankings, ${growthOptions.reads} reads of top ${100} plus my place; ` +
      `${growthOptions.rounds} x ${growthOptions.checkins} check-ins (16 at a time) against as many single-row inserts`,
  );
  if (!growthOptions.postgresUrl)
    console.log('  PostgreSQL skipped: set TEST_DATABASE_URL to measure it too');
  if (!growthOptions.redisUrl)
    console.log('  Redis skipped: set TEST_REDIS_URL to measure the rankings in Redis');
  try {
    for (const figures of await benchGrowth(growthOptions)) {
      console.log(
        `  ${figures.dialect}: populated in ${fixed(figures.populateSeconds, 1)} s` +
          (figures.redis ? `, Redis sets filled in ${fixed(figures.rebuildSeconds, 1)} s` : '') +
          `; ${fixed(figures.checkinsPerS, 0)} check-ins/s, ${fixed(figures.rawPerS, 0)} single-row inserts/s (medians)`,
      );
      // The product's path is judged (Redis when configured); SQL alone is shown beside it.
      const [served, ...others] = figures.rankings;
      for (const other of others) {
        console.log(
          `  ${figures.dialect} rankings from ${other.store} alone: p50=${fixed(other.p50Ms, 1)}ms p99=${fixed(other.p99Ms, 1)}ms`,
        );
      }
      if (served) {
        report(
          resultLine(
            'rankings',
            {
              db: figures.dialect,
              store: served.store,
              p99_ms: fixed(served.p99Ms, 1),
              p50_ms: fixed(served.p50Ms, 1),
              users: figures.users,
              target_p99_ms: TARGETS.rankingsP99Ms,
            },
            rankingsOk(served.p99Ms),
          ),
        );
      }
      report(
        resultLine(
          'checkin',
          {
            db: figures.dialect,
            ratio: fixed(figures.ratio, 3),
            checkins_per_s: fixed(figures.checkinsPerS, 0),
            raw_per_s: fixed(figures.rawPerS, 0),
            target_ratio: TARGETS.checkin.minRatio,
          },
          figures.ratio >= TARGETS.checkin.minRatio,
        ),
      );
    }
  } catch (error) {
    failed = true;
    console.error(`growth failed: ${(error as Error).message}`);
  }
}

if (failed) process.exitCode = 1;
