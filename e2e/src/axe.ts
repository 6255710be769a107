import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

/** The parts of axe-core's result this helper reports; its own types stay out of the page. */
interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: AxeNode[];
}

declare const axe: {
  run(
    context: Document,
    options: { resultTypes: string[] },
  ): Promise<{
    violations: AxeViolation[];
  }>;
};

/** Serious and critical violations block; minor and moderate ones are left to review. */
const BLOCKING = new Set(['serious', 'critical']);

let axeSource: Promise<string> | undefined;

function loadAxe(): Promise<string> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

function describeViolation(violation: AxeViolation): string {
  const nodes = violation.nodes.map(
    (node) =>
      `    ${JSON.stringify(node.target)}\n      ${(node.failureSummary ?? '').replace(/\n/g, '\n      ')}`,
  );
  return `  ${violation.id} (${violation.impact}): ${violation.help}\n${nodes.join('\n')}`;
}

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation,
 * naming each rule, its impact, and every element with the reason it fails. The page
 * must already show the content under test: axe checks only what is in the DOM.
 */
export async function expectAccessible(page: Page | Frame, label: string): Promise<void> {
  const alreadyLoaded = await page.evaluate(() => 'axe' in window);
  // Evaluated through the DevTools protocol: an injected <script> would be refused by the
  // app's own Content Security Policy (script-src 'self'), which stays on under test.
  if (!alreadyLoaded) await page.evaluate(`${await loadAxe()}\n;0`);
  const { violations } = await page.evaluate(() =>
    axe.run(document, { resultTypes: ['violations'] }),
  );
  const blocking = violations.filter((violation) => BLOCKING.has(violation.impact ?? ''));
  if (blocking.length > 0) {
    throw new Error(
      `${label}: ${blocking.length} serious or critical accessibility violation(s)\n${blocking
        .map(describeViolation)
        .join('\n')}`,
    );
  }
}
