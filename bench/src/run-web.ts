import { benchCallSetup, type CallSetupOptions, type CallSetupRun } from './call-setup.js';
import {
  benchLighthouse,
  LIGHTHOUSE_PAGES,
  LIGHTHOUSE_TARGETS,
  type LighthousePage,
} from './lighthouse.js';
import { fixed } from './stats.js';
import { callSetupOk, resultLine, TARGETS, webFirstLoadOk } from './targets.js';
import {
  FIRST_LOAD_BUDGET_BYTES,
  type FirstLoadOptions,
  measureFirstLoad,
} from './web-first-load.js';

/** Prints a benchmark's RESULT line (a missed target fails the run). */
export type Report = (result: { line: string; ok: boolean }) => void;

/**
 * The web app's first load in Chromium, its scripts against the budget; false if it could
 * not run.
 */
export async function runWebFirstLoad(
  firstLoadOptions: FirstLoadOptions,
  report: Report,
): Promise<boolean> {
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
    return true;
  } catch (error) {
    console.error(`web-first-load failed: ${(error as Error).message}`);
    return false;
  }
}

/** Lighthouse's audits of the sign-in and landing pages; false if one could not run. */
export async function runLighthouse(lighthouseRuns: number, report: Report): Promise<boolean> {
  let ran = true;
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
      ran = false;
      console.error(`lighthouse ${page} failed: ${(error as Error).message}`);
    }
  }
  return ran;
}

/** Each side's first frame, for a run's line. */
function sides(run: CallSetupRun): string {
  return run.sidesMs.map((ms) => fixed(ms, 0)).join('/');
}

/**
 * A one-to-one video call in the web app, accept to the first remote frame on both sides,
 * against two bare RTCPeerConnections through the same TURN; false if it could not run.
 */
export async function runCallSetup(options: CallSetupOptions, report: Report): Promise<boolean> {
  console.log(
    `call-setup: accept to the first remote video frame on both sides, relay only through one coturn; ` +
      `${options.warmup} warm-up and ${options.runs} measured runs of each, alternating`,
  );
  try {
    const result = await benchCallSetup(options, (kind, run) =>
      console.log(
        `  ${kind === 'ours' ? 'teltlk  ' : 'baseline'} ${fixed(run.ms, 0)} ms ` +
          `(${kind === 'ours' ? 'caller/callee' : 'offerer/answerer'} ${sides(run)}; ` +
          (kind === 'ours' ? `connections made at ${fixed(run.madeMs, 0)}, ` : '') +
          `connected at ${fixed(run.connectedMs, 0)})`,
      ),
    );
    console.log(
      `  medians: teltlk ${fixed(result.oursMs, 0)} ms from accept (connections made at ` +
        `${fixed(result.ourPhases.madeMs, 0)}, connected at ${fixed(result.ourPhases.connectedMs, 0)}); ` +
        `two bare RTCPeerConnections ${fixed(result.baselineMs, 0)} ms from createOffer ` +
        `(connected at ${fixed(result.baselineConnectedMs, 0)})`,
    );
    report(
      resultLine(
        'call-setup',
        {
          ratio: fixed(result.ratio, 2),
          ms: fixed(result.oursMs, 0),
          baseline_ms: fixed(result.baselineMs, 0),
          calls: result.ours.length,
          target_ratio: TARGETS.callSetup.maxRatio,
        },
        callSetupOk(result),
      ),
    );
    return true;
  } catch (error) {
    console.error(`call-setup failed: ${(error as Error).message}`);
    return false;
  }
}
