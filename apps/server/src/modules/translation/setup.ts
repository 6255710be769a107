import type { TranslateConfig, TranslateProviderName } from '../../config.js';
import type { ChineseScripts } from './chinese.js';
import { apertiumProvider } from './providers/apertium.js';
import { libreTranslateProvider } from './providers/libretranslate.js';
import { openAiProvider } from './providers/openai.js';
import type { Coverage, TranslationProvider } from './providers/provider.js';
import { DEFAULT_RUNNER_OPTIONS, ProviderRunner, type RunnerOptions } from './runner.js';
import { Translator } from './translator.js';

/** The configured providers, in the order they are tried. */
export function configuredProviders(config: TranslateConfig): TranslationProvider[] {
  const make: Record<TranslateProviderName, () => TranslationProvider | null> = {
    openai: () => (config.openai ? openAiProvider(config.openai) : null),
    libretranslate: () =>
      config.libreTranslate ? libreTranslateProvider(config.libreTranslate) : null,
    apertium: () => (config.apertium ? apertiumProvider(config.apertium) : null),
  };
  return config.order.flatMap((name) => make[name]() ?? []);
}

/** How each provider is driven: the configured limits, and a test's changes. */
export function runnerOptions(
  config: TranslateConfig,
  changes: Partial<RunnerOptions> = {},
): RunnerOptions {
  return {
    ...DEFAULT_RUNNER_OPTIONS,
    concurrency: config.concurrency,
    timeoutMs: config.timeoutMs,
    ...changes,
  };
}

/** The provider chain, each provider driven alike. */
export function createTranslator(
  providers: readonly TranslationProvider[],
  options: RunnerOptions,
  scripts: ChineseScripts,
): Translator {
  return new Translator(
    providers.map((provider) => new ProviderRunner(provider, options)),
    scripts,
  );
}

/** How long a claim holds: every attempt timing out, with the waits between them. */
export function leaseFor(
  options: Pick<RunnerOptions, 'timeoutMs' | 'attempts' | 'backoffMs'>,
): number {
  return options.timeoutMs * options.attempts + options.backoffMs * 4 ** options.attempts;
}

/** Source languages, and targets of each, the start-up report names before counting the rest. */
const REPORT_SOURCES_MAX = 8;
const REPORT_TARGETS_MAX = 6;

/**
 * What the server translates, in a few lines for whoever starts it: each provider in the
 * order tried with the pairs it covers (summarised: an engine may list hundreds), or
 * plainly that there is none.
 */
export async function translationReport(
  providers: readonly TranslationProvider[],
  signal?: AbortSignal,
): Promise<string[]> {
  if (providers.length === 0) {
    return [
      'Translation: no provider configured; messages are shown untranslated, except Chinese ' +
        "script conversion and the browser's on-device translator where present",
    ];
  }
  const lines = await Promise.all(
    providers.map(
      async (provider) =>
        `  ${provider.name}: ${describeCoverage(await provider.coverage(signal).catch(() => null))}`,
    ),
  );
  return [
    'Translation providers, in the order tried (Chinese script conversion zh <-> zh-Hant is built in):',
    ...lines,
  ];
}

function describeCoverage(coverage: Coverage): string {
  if (coverage === 'any') return 'any language pair';
  if (coverage === null) return 'could not be reached to list its pairs (asked again on use)';
  if (coverage.length === 0) return 'none of our language pairs';
  const targets = new Map<string, string[]>();
  for (const [from, to] of coverage) targets.set(from, [...(targets.get(from) ?? []), to]);
  const named = [...targets]
    .slice(0, REPORT_SOURCES_MAX)
    .map(([from, list]) => `${from}->${summary(list, REPORT_TARGETS_MAX)}`);
  const more = targets.size - named.length;
  const pairs = coverage.length === 1 ? '1 pair' : `${coverage.length} pairs`;
  return `${pairs}: ${named.join(' ')}${more > 0 ? ` and ${more} more source languages` : ''}`;
}

/** The first `max` of a list, and how many more. */
function summary(list: readonly string[], max: number): string {
  const shown = list.slice(0, max).join(',');
  return list.length > max ? `${shown}(+${list.length - max})` : shown;
}
