import type { TranslateConfig, TranslateProviderName } from '../../config.js';
import type { ChineseScripts } from './chinese.js';
import { apertiumProvider } from './providers/apertium.js';
import { libreTranslateProvider } from './providers/libretranslate.js';
import { openAiProvider } from './providers/openai.js';
import type { TranslationProvider } from './providers/provider.js';
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
