import { CALL_SETUP_DEFAULTS, type CallSetupOptions } from './call-setup.js';
import { DM_DEFAULTS, type DmOptions } from './dm-throughput.js';
import { FIRST_SYNC_DEFAULTS, type FirstSyncOptions } from './first-sync.js';
import { GROUP_DEFAULTS, type GroupOptions } from './group-fanout.js';
import { GROWTH_DEFAULTS, type GrowthOptions } from './growth.js';
import { IDLE_DEFAULTS, type IdleOptions, maxIdleSockets } from './idle-memory.js';
import { LEDGER_DEFAULTS, type LedgerOptions } from './ledger.js';
import { LIGHTHOUSE_DEFAULTS } from './lighthouse.js';
import { MEDIA_DEFAULTS, type MediaOptions } from './media-upload.js';
import { PERSISTENCE_DEFAULTS, type PersistenceOptions } from './persistence.js';
import { SEARCH_DEFAULTS, type SearchOptions } from './search.js';
import { SFU_DEFAULTS, type SfuOptions } from './sfu-fanout.js';
import { TRANSLATION_DEFAULTS, type TranslationOptions } from './translation.js';
import { FIRST_LOAD_DEFAULTS, type FirstLoadOptions } from './web-first-load.js';

/**
 * The benchmark run's command line: which benchmarks, and each one's options. Flags, after a build: `npm run bench -w @teltlk/bench -- --only=dm --seconds=5`
 *   --only=web,dm,idle   which benchmarks (default: all)
 *   --web-chats=3                                                    web first load
 *   --lighthouse-runs=3                                              sign-in and landing page audits
 *   --call-runs=5 --call-warmup=1                                    one-to-one call set-up
 *     (coturn's `turnserver` on the PATH)
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
 *   --sfu-participants=8 --sfu-seconds=20 --sfu-runs=3 --sfu-settle=5   group video call on Janus
 *     (its own Janus from infra/janus, `janus` on the PATH; Chromium at CHROME_PATH or CHROMIUM_PATH)
 */
const BENCHMARKS = [
  'web',
  'lighthouse',
  'call-setup',
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
  'sfu-fanout',
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

export const only = (flags.get('only') ?? BENCHMARKS.join(',')).split(',') as Benchmark[];
flags.delete('only');
for (const name of only)
  if (!BENCHMARKS.includes(name)) throw new Error(`--only: unknown benchmark ${name}`);

export const dmOptions: DmOptions = {
  clients: numberFlag('clients', DM_DEFAULTS.clients),
  seconds: numberFlag('seconds', DM_DEFAULTS.seconds, 'seconds'),
  warmupSeconds: numberFlag('warmup', DM_DEFAULTS.warmupSeconds, 'seconds'),
  repeats: numberFlag('repeats', DM_DEFAULTS.repeats),
  window: numberFlag('window', DM_DEFAULTS.window),
};
export const socketLimit = maxIdleSockets();
export const socketsFlag = flags.has('sockets');
export const idleOptions: IdleOptions = {
  sockets: numberFlag('sockets', Math.min(IDLE_DEFAULTS.sockets, socketLimit)),
  settleSeconds: numberFlag('settle', IDLE_DEFAULTS.settleSeconds, 'seconds'),
  repeats: numberFlag('idle-repeats', IDLE_DEFAULTS.repeats),
};
export const groupOptions: GroupOptions = {
  members: numberFlag('group-members', GROUP_DEFAULTS.members),
  sockets: numberFlag('group-sockets', Math.min(GROUP_DEFAULTS.sockets, socketLimit)),
  accounts: numberFlag('group-accounts', GROUP_DEFAULTS.accounts),
  messages: numberFlag('group-messages', GROUP_DEFAULTS.messages),
  repeats: numberFlag('group-repeats', GROUP_DEFAULTS.repeats),
  cpuMessages: numberFlag('group-cpu-messages', GROUP_DEFAULTS.cpuMessages),
};
export const translationOptions: TranslationOptions = {
  members: numberFlag('translation-members', TRANSLATION_DEFAULTS.members),
  groupSize: numberFlag('translation-group', TRANSLATION_DEFAULTS.groupSize),
  languages: numberFlag('translation-languages', TRANSLATION_DEFAULTS.languages),
  messages: numberFlag('translation-messages', TRANSLATION_DEFAULTS.messages),
  lookups: numberFlag('translation-lookups', TRANSLATION_DEFAULTS.lookups),
  offline: numberFlag('translation-offline', TRANSLATION_DEFAULTS.offline),
};
export const persistenceOptions: PersistenceOptions = {
  messages: numberFlag('persistence-messages', PERSISTENCE_DEFAULTS.messages),
  senders: numberFlag('persistence-senders', PERSISTENCE_DEFAULTS.senders),
  rounds: numberFlag('persistence-rounds', PERSISTENCE_DEFAULTS.rounds),
  postgresUrl: process.env.TEST_DATABASE_URL ?? null,
};
export const ledgerOptions: LedgerOptions = {
  grabbers: numberFlag('ledger-grabbers', LEDGER_DEFAULTS.grabbers),
  shares: numberFlag('ledger-shares', LEDGER_DEFAULTS.shares),
  transfers: numberFlag('ledger-transfers', LEDGER_DEFAULTS.transfers),
  rounds: numberFlag('ledger-rounds', LEDGER_DEFAULTS.rounds),
  postgresUrl: process.env.TEST_DATABASE_URL ?? null,
};
export const growthOptions: GrowthOptions = {
  users: numberFlag('growth-users', GROWTH_DEFAULTS.users),
  reads: numberFlag('growth-reads', GROWTH_DEFAULTS.reads),
  checkins: numberFlag('growth-checkins', GROWTH_DEFAULTS.checkins),
  rounds: numberFlag('growth-rounds', GROWTH_DEFAULTS.rounds),
  postgresUrl: process.env.TEST_DATABASE_URL ?? null,
  redisUrl: process.env.TEST_REDIS_URL ?? null,
};
export const firstLoadOptions: FirstLoadOptions = {
  chats: numberFlag('web-chats', FIRST_LOAD_DEFAULTS.chats),
};
export const firstSyncOptions: FirstSyncOptions = {
  chats: numberFlag('sync-chats', FIRST_SYNC_DEFAULTS.chats),
  messages: numberFlag('sync-messages', FIRST_SYNC_DEFAULTS.messages),
  rounds: numberFlag('sync-rounds', FIRST_SYNC_DEFAULTS.rounds),
};
export const mediaOptions: MediaOptions = {
  clients: numberFlag('media-clients', MEDIA_DEFAULTS.clients),
  repeats: numberFlag('media-repeats', MEDIA_DEFAULTS.repeats),
  photoBytes:
    numberFlag('media-mb', MEDIA_DEFAULTS.photoBytes / 1024 / 1024, 'seconds') * 1024 * 1024,
};
export const searchOptions: SearchOptions = {
  messages: numberFlag('search-messages', SEARCH_DEFAULTS.messages),
  rounds: numberFlag('search-rounds', SEARCH_DEFAULTS.rounds),
  postgresUrl: process.env.TEST_DATABASE_URL ?? null,
};
export const callSetupOptions: CallSetupOptions = {
  runs: numberFlag('call-runs', CALL_SETUP_DEFAULTS.runs),
  warmup: numberFlag('call-warmup', CALL_SETUP_DEFAULTS.warmup),
};
export const lighthouseRuns = numberFlag('lighthouse-runs', LIGHTHOUSE_DEFAULTS.runs);
export const sfuOptions: SfuOptions = {
  participants: numberFlag('sfu-participants', SFU_DEFAULTS.participants),
  seconds: numberFlag('sfu-seconds', SFU_DEFAULTS.seconds, 'seconds'),
  runs: numberFlag('sfu-runs', SFU_DEFAULTS.runs),
  settleSeconds: numberFlag('sfu-settle', SFU_DEFAULTS.settleSeconds, 'seconds'),
};
if (flags.size > 0) throw new Error(`unknown flag --${[...flags.keys()][0]}`);
