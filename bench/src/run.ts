import { cpus } from 'node:os';
import { benchDm } from './dm-throughput.js';
import { benchFirstSync } from './first-sync.js';
import { benchGroup } from './group-fanout.js';
import { benchGrowth } from './growth.js';
import { benchIdle, IDLE_DEFAULTS, openFileLimit } from './idle-memory.js';
import { benchLedger } from './ledger.js';
import { benchMediaUpload } from './media-upload.js';
import { benchPersistence } from './persistence.js';
import {
  callSetupOptions,
  dmOptions,
  firstLoadOptions,
  firstSyncOptions,
  groupOptions,
  growthOptions,
  idleOptions,
  ledgerOptions,
  lighthouseRuns,
  mediaOptions,
  only,
  persistenceOptions,
  searchOptions,
  sfuOptions,
  socketLimit,
  socketsFlag,
  translationOptions,
} from './run-options.js';
import { runCallSetup, runLighthouse, runWebFirstLoad } from './run-web.js';
import { benchSearch, SEARCH_QUERIES } from './search.js';
import { benchSfu } from './sfu-fanout.js';
import { fixed } from './stats.js';
import {
  dmOk,
  firstSyncOk,
  groupOk,
  idleOk,
  ledgerOk,
  mediaOk,
  persistenceOk,
  rankingsOk,
  resultLine,
  searchOk,
  sfuOk,
  TARGETS,
  translationOk,
} from './targets.js';
import { benchTranslation } from './translation.js';

/**
 * Runs the benchmarks and prints one `RESULT` line each. Baselines are measured in the
 * same run (PERFORMANCE.md); ratios are what to compare between runs. The flags are read
 * in run-options.ts.
 */

console.log(`cores=${cpus().length} node=${process.version} open_files=${openFileLimit()}`);
let failed = false;

/** Prints a benchmark's RESULT line; a missed target fails the run. */
function report(result: { line: string; ok: boolean }): void {
  console.log(result.line);
  if (!result.ok) failed = true;
}

if (only.includes('web') && !(await runWebFirstLoad(firstLoadOptions, report))) failed = true;

if (only.includes('lighthouse') && !(await runLighthouse(lighthouseRuns, report))) failed = true;

if (only.includes('call-setup') && !(await runCallSetup(callSetupOptions, report))) failed = true;

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
          target_p99_ms: TARGETS.dm.maxP99Ms,
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

if (only.includes('sfu-fanout')) {
  console.log(
    `sfu-fanout: ${sfuOptions.participants} people in a video call on Janus, each publishing and ` +
      `receiving everyone else; ${sfuOptions.runs} x ${sfuOptions.seconds} s windows of each, alternating`,
  );
  try {
    const sfu = await benchSfu(sfuOptions);
    console.log(
      `  medians: ours ${fixed(sfu.oursCpuMs, 0)} ms CPU per window (Janus ${fixed(sfu.oursJanusCpuMs, 0)}, ` +
        `server ${fixed(sfu.oursServerCpuMs, 0)}), Janus alone ${fixed(sfu.baselineCpuMs, 0)} ms; ` +
        `per MB delivered ${fixed(sfu.oursMsPerMb, 1)} ms against ${fixed(sfu.baselineMsPerMb, 1)} ms; ` +
        `${sfu.streams} of ${sfu.expectedStreams} remote videos flowed through every window`,
    );
    report(
      resultLine(
        'sfu-fanout',
        {
          ratio: fixed(sfu.ratio, 3),
          ours_cpu_ms: fixed(sfu.oursCpuMs, 0),
          janus_cpu_ms: fixed(sfu.oursJanusCpuMs, 0),
          server_cpu_ms: fixed(sfu.oursServerCpuMs, 0),
          baseline_cpu_ms: fixed(sfu.baselineCpuMs, 0),
          participants: sfu.participants,
          streams: sfu.streams,
          target_ratio: TARGETS.sfu.maxRatio,
        },
        sfuOk(sfu),
      ),
    );
  } catch (error) {
    failed = true;
    console.error(`sfu-fanout failed: ${(error as Error).message}`);
  }
}

if (failed) process.exitCode = 1;
