import { spawnSync } from 'node:child_process';
import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { startTeltlk } from './server-process.js';
import { median } from './stats.js';

/**
 * PERFORMANCE.md: the sign-in page under Lighthouse's mobile profile; the landing site
 * (issue: devices and reach) besides, also for best practices and search engines.
 */
export const LIGHTHOUSE_TARGETS = {
  performance: 90,
  accessibility: 95,
  bestPractices: 95,
  seo: 95,
};

/** The pages audited: the sign-in page (`/` signed out) and the landing site's home. */
export const LIGHTHOUSE_PAGES = { signin: '/', landing: '/home/' } as const;
export type LighthousePage = keyof typeof LIGHTHOUSE_PAGES;

export const LIGHTHOUSE_DEFAULTS = { runs: 3 };

export interface LighthouseOptions {
  runs: number;
  page: LighthousePage;
}

/** One Lighthouse run's scores (0–100) and the metrics behind the performance score. */
export interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Bytes over the network for the whole first visit (Lighthouse's total-byte-weight). */
  transferBytes: number;
  /** Titles of the accessibility, best-practice and SEO audits that failed. */
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
    bestPractices: score(result, 'best-practices'),
    seo: score(result, 'seo'),
    fcpMs: numeric(result, 'first-contentful-paint'),
    lcpMs: numeric(result, 'largest-contentful-paint'),
    tbtMs: numeric(result, 'total-blocking-time'),
    cls: numeric(result, 'cumulative-layout-shift'),
    speedIndexMs: numeric(result, 'speed-index'),
    transferBytes: numeric(result, 'total-byte-weight'),
    accessibilityFailures: [
      ...a11yRefs,
      ...(result.categories['best-practices']?.auditRefs ?? []),
      ...(result.categories.seo?.auditRefs ?? []),
    ]
      .map((ref) => result.audits[ref.id]!)
      .filter((audit) => audit.score === 0)
      .map((audit) => `${audit.id}: ${audit.title}`),
    performanceFindings: findings(result),
    lcpElement: lcpElement(result),
    benchmarkIndex: result.environment.benchmarkIndex,
  };
}

/**
 * The fonts this machine has for Simplified Chinese, as fontconfig lists them (Chromium
 * on Linux finds its fonts through it), or null where fontconfig is not there to ask.
 */
function chineseFonts(): string[] | null {
  const listing = spawnSync('fc-list', [':lang=zh-cn', 'family'], { encoding: 'utf8' });
  if (listing.error || listing.status !== 0) return null;
  return [...new Set(listing.stdout.split('\n').filter(Boolean))].sort();
}

/**
 * Both pages are in Simplified Chinese by default, and every reader's phone has a font
 * for it. Without one Chromium searches every font for each character and draws empty
 * boxes, and the pages take two to three times as long to lay out: the audit would
 * measure this machine's missing font, not the pages.
 */
function requireChineseFont(): void {
  const fonts = chineseFonts();
  if (fonts !== null && fonts.length === 0) {
    throw new Error(
      'no font for Chinese on this machine (fc-list :lang=zh-cn lists none); ' +
        'install one, on Debian: apt-get install fonts-noto-cjk',
    );
  }
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
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
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
  requireChineseFont();
  const server = await startTeltlk();
  try {
    const runs: LighthouseRun[] = [];
    const url = `${server.baseUrl}${LIGHTHOUSE_PAGES[options.page]}`;
    for (let i = 0; i < options.runs; i++) runs.push(await runOnce(url));
    // A whole run, not averaged figures, so its metrics explain its score.
    const byScore = [...runs].sort((a, b) => a.performance - b.performance);
    const chosen = byScore[(byScore.length - 1) >> 1]!;
    const accessibility = median(runs.map((run) => run.accessibility));
    const bestPractices = median(runs.map((run) => run.bestPractices));
    const seo = median(runs.map((run) => run.seo));
    // The sign-in page's targets are PERFORMANCE.md's; best practices and SEO are the
    // landing site's (the app's pages are not for search engines).
    const landing = options.page === 'landing';
    return {
      median: { ...chosen, accessibility, bestPractices, seo },
      runs,
      ok:
        chosen.performance >= LIGHTHOUSE_TARGETS.performance &&
        accessibility >= LIGHTHOUSE_TARGETS.accessibility &&
        (!landing ||
          (bestPractices >= LIGHTHOUSE_TARGETS.bestPractices && seo >= LIGHTHOUSE_TARGETS.seo)),
    };
  } finally {
    await server.stop();
  }
}
