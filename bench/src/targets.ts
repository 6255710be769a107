/**
 * The targets of PERFORMANCE.md, and whether a run's figures meet them. Every benchmark's
 * `RESULT` line ends in `ok=true|false` from here, and a run with any `ok=false` exits
 * non-zero.
 */
export const TARGETS = {
  webFirstLoadKb: 250,
  // Against the limit (a bare relay that does nothing else): a regression floor below
  // run-to-run noise; against a peer server is the chat benchmark's business.
  dm: { minRatio: 0.12, maxP99Ms: 200 },
  idle: { maxRatio: 3, maxKbPerSocket: 30 },
  persistence: { minRatio: 0.5 },
  firstSyncMs: 1000,
  group: { maxAcceptRatio: 1.5, maxP99Ms: 2000 },
  media: { maxRatio: 1.5 },
  searchP99Ms: 100,
  ledger: { minRatio: 0.3 },
  rankingsP99Ms: 20,
  /** Accept to the first remote video frame, the app's call ÷ two bare RTCPeerConnections. */
  callSetup: { maxRatio: 2 },
  /** Not in PERFORMANCE.md: a check-in writes three rows, like a transfer; the ledger's bar. */
  checkin: { minRatio: 0.3 },
  sfu: { maxRatio: 1.2, participants: 8 },
} as const;

/** Top 100 plus my place among the population, p99. */
export function rankingsOk(p99Ms: number): boolean {
  return p99Ms <= TARGETS.rankingsP99Ms;
}

export interface DmResult {
  ratio: number;
  p99: number;
  wsP99: number;
}

export function dmOk({ ratio, p99 }: DmResult): boolean {
  const { minRatio, maxP99Ms } = TARGETS.dm;
  return ratio >= minRatio && p99 <= maxP99Ms;
}

/**
 * Exactly as many members got a share as the envelope has (never more, never fewer while
 * more tried), the ledger balances, and transfers keep up with the target ratio.
 */
export function ledgerOk(figures: {
  ratio: number;
  grabsOk: number;
  shares: number;
  ledgerProblems: readonly string[];
}): boolean {
  return (
    figures.ratio >= TARGETS.ledger.minRatio &&
    figures.grabsOk === figures.shares &&
    figures.ledgerProblems.length === 0
  );
}

export function persistenceOk({ ratio }: { ratio: number }): boolean {
  return ratio >= TARGETS.persistence.minRatio;
}

/** A new device has the whole conversation list within the target time. */
export function firstSyncOk({ syncMs }: { syncMs: number }): boolean {
  return syncMs <= TARGETS.firstSyncMs;
}

export function idleOk({ ratio, kbPerSocket }: { ratio: number; kbPerSocket: number }): boolean {
  return ratio <= TARGETS.idle.maxRatio && kbPerSocket <= TARGETS.idle.maxKbPerSocket;
}

export function groupOk({ acceptRatio, p99 }: { acceptRatio: number; p99: number }): boolean {
  return acceptRatio <= TARGETS.group.maxAcceptRatio && p99 <= TARGETS.group.maxP99Ms;
}

/**
 * A group video call of at least the target's size, every remote video flowing through the
 * measured windows, costs Janus and our server at most 1.2 times what Janus alone costs.
 */
export function sfuOk(figures: {
  ratio: number;
  participants: number;
  streams: number;
  expectedStreams: number;
}): boolean {
  return (
    figures.ratio <= TARGETS.sfu.maxRatio &&
    figures.participants >= TARGETS.sfu.participants &&
    figures.streams >= figures.expectedStreams
  );
}

/** Server CPU per photo within 1.5 times sharp making the same thumbnail alone. */
export function mediaOk({ ratio }: { ratio: number }): boolean {
  return ratio <= TARGETS.media.maxRatio;
}

/** Searches over a million messages answer within the target, 99 in 100 of them. */
export function searchOk({ p99 }: { p99: number }): boolean {
  return p99 <= TARGETS.searchP99Ms;
}

/**
 * A one-to-one call shows video within twice the time two bare RTCPeerConnections take
 * through the same TURN.
 */
export function callSetupOk({ ratio }: { ratio: number }): boolean {
  return ratio <= TARGETS.callSetup.maxRatio;
}

export function webFirstLoadOk(gzipKb: number): boolean {
  return gzipKb <= TARGETS.webFirstLoadKb;
}

/** Exactly one provider call per language per message, whatever the group size. */
export function translationOk({
  callsPerMessage,
  languages,
}: {
  callsPerMessage: number;
  languages: number;
}): boolean {
  return callsPerMessage === languages;
}

/**
 * A benchmark's last line: `RESULT <name> <figure>=<value> ... ok=<true|false>`. A figure
 * that is not a finite number fails the line: a benchmark that measured nothing met nothing.
 */
export function resultLine(
  name: string,
  figures: Record<string, string | number>,
  ok: boolean,
): { line: string; ok: boolean } {
  const measured = Object.values(figures).every((value) =>
    typeof value === 'number' ? Number.isFinite(value) : !/^-?(?:NaN|Infinity)$/.test(value),
  );
  const passed = ok && measured;
  const parts = Object.entries(figures).map(([key, value]) => `${key}=${value}`);
  return { line: ['RESULT', name, ...parts, `ok=${passed}`].join(' '), ok: passed };
}
