import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { startTeltlk } from './server-process.js';
import { median } from './stats.js';

/** PERFORMANCE.md: the sign-in page under Lighthouse's mobile profile. */
export const LIGHTHOUSE_TARGETS = { performance: 90, accessibility: 95 };

export const LIGHTHOUSE_DEFAULTS = { runs: 3 };

export interface LighthouseOptions {
  runs: number;
}

/** One Lighthouse run's scores (0–100) and the metrics behind the performance score. */
export interface LighthouseRun {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Bytes over the network for the whole first visit (Lighthouse's total-byte-weight). */
  transferBytes: number;
  /** Titles of the accessibility audits that failed. */
  accessibilityFailures: string[];
  /** Performance opportunities and diagnostics that did not pass, worst first. */
  performanceFindings: string[];
  /** The element Lighthouse counted as the largest contentful paint. */
  lcpElement: string;
  /** Lighthouse's measure of this machine's CPU speed (a mid-range phone is about 1,000). */
  benchmarkIndex: number;
}

export interface LighthouseResult {
  /** The run with the median performance score. */
  median: LighthouseRun;
  runs: LighthouseRun[];
  ok: boolean;
}

/**
 * Chromium as Lighthouse's own CI runs it headless; background networking off so the
 * browser fetches nothing but the page (no updates, no safe-browsing lists).
 */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--no-first-run',
];

const score = (result: Result, category: string) =>
  Math.round((result.categories[category]?.score ?? 0) * 100);

const numeric = (result: Result, audit: string) => result.audits[audit]?.numericValue ?? NaN;

function findings(result: Result): string[] {
  const ids = (result.categories.performance?.auditRefs ?? [])
    .filter((ref) => ref.weight === 0)
    .map((ref) => ref.id);
  return ids
    .map((id) => result.audits[id]!)
    .filter((audit) => audit.score !== null && audit.score < 0.9)
    .sort((a, b) => (a.score ?? 1) - (b.score ?? 1))
    .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
}

function lcpElement(result: Result): string {
  const details = result.audits['largest-contentful-paint-element']?.details as
    { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
  return details?.items?.[0]?.items?.[0]?.node?.snippet ?? 'unknown';
}

function summarise(result: Result): LighthouseRun {
  const a11yRefs = result.categories.accessibility?.auditRefs ?? [];
  return {
    performance: score(result, 'performance'),
    accessibility: score(result, 'accessibility'),
    fcpMs: numeric(result, 'first-contentful-paint'),
    lcpMs: numeric(result, 'largest-contentful-paint'),
    tbtMs: numeric(result, 'total-blocking-time'),
    cls: numeric(result, 'cumulative-layout-shift'),
    speedIndexMs: numeric(result, 'speed-index'),
    transferBytes: numeric(result, 'total-byte-weight'),
    accessibilityFailures: a11yRefs
      .map((ref) => result.audits[ref.id]!)
      .filter((audit) => audit.score === 0)
      .map((audit) => `${audit.id}: ${audit.title}`),
    performanceFindings: findings(result),
    lcpElement: lcpElement(result),
    benchmarkIndex: result.environment.benchmarkIndex,
  };
}

/** Lighthouse sometimes loses the trace of a load (NO_NAVSTART); such a run is taken again. */
const ATTEMPTS_PER_RUN = 3;

/** One cold visit: a new browser with an empty profile, so nothing comes from a cache. */
async function runOnce(url: string): Promise<LighthouseRun> {
  let failure: Error | null = null;
  for (let attempt = 0; attempt < ATTEMPTS_PER_RUN; attempt++) {
    try {
      return await visit(url);
    } catch (error) {
      failure = error as Error;
    }
  }
  throw failure!;
}

async function visit(url: string): Promise<LighthouseRun> {
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
  try {
    const answer = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    if (!answer) throw new Error('Lighthouse returned no result');
    const { lhr } = answer;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    return summarise(lhr);
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse's default mobile profile (a mid-range phone, simulated slow 4G and a 4x
 * slower CPU) on the server's `/` signed out, which is the sign-in page, served from the
 * built web app by the built server like the other benchmarks.
 */
export async function benchLighthouse(options: LighthouseOptions): Promise<LighthouseResult> {
  const server = await startTeltlk();
  try {
    const runs: LighthouseRun[] = [];
    for (let i = 0; i < options.runs; i++) runs.push(await runOnce(`${server.baseUrl}/`));
    // A whole run, not averaged figures, so its metrics explain its score.
    const byScore = [...runs].sort((a, b) => a.performance - b.performance);
    const chosen = byScore[(byScore.length - 1) >> 1]!;
    const accessibility = median(runs.map((run) => run.accessibility));
    return {
      median: { ...chosen, accessibility },
      runs,
      ok:
        chosen.performance >= LIGHTHOUSE_TARGETS.performance &&
        accessibility >= LIGHTHOUSE_TARGETS.accessibility,
    };
  } finally {
    await server.stop();
  }
}
