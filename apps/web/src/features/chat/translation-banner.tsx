import { CloseOutline, GlobalOutline } from 'antd-mobile-icons';
import { useEffect, useMemo, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { languageName } from '../../ui/languages';
import { useUiLocale } from '../../ui/use-ui-locale';
import { unavailableSources } from '../../ui/conversation/translation-view';
import { deviceTranslator, type DevicePairState } from './device-translator';
import { useDevicePairs, type TranslationRowContext } from './use-translation';

const CLOSED_PREFIX = 'teltlk.translationBannerClosed.';
const UNAVAILABLE: DevicePairState = { kind: 'unavailable' };

/** The pairs (`from>to`) whose banner was closed in this chat, on this device. */
function closedPairs(conversationId: string): ReadonlySet<string> {
  try {
    const stored: unknown = JSON.parse(
      localStorage.getItem(CLOSED_PREFIX + conversationId) ?? '[]',
    );
    return new Set(Array.isArray(stored) ? stored.filter((item) => typeof item === 'string') : []);
  } catch {
    return new Set();
  }
}

function rememberClosed(conversationId: string, pairs: ReadonlySet<string>): void {
  try {
    localStorage.setItem(CLOSED_PREFIX + conversationId, JSON.stringify([...pairs]));
  } catch {
    // Closed for this visit only.
  }
}

/** What the banner says: the first of these that any untranslated language is in. */
export type BannerMode =
  | { kind: 'downloading'; sources: string[]; progress: number | null }
  | { kind: 'downloadable'; sources: string[] }
  | { kind: 'failed'; sources: string[] }
  | { kind: 'unavailable'; sources: string[] };

/**
 * The banner for the languages the server cannot translate into the chat's target, by
 * where the device stands on each: a download under way, a pack the device could
 * download, a device translator that failed, or nothing that translates. Languages the
 * device translates, or is still asking about, need no banner, nor those it was closed
 * for (unless their download is under way: the person asked for it).
 */
export function bannerMode(
  sources: readonly string[],
  stateOf: (from: string) => DevicePairState,
  closed: (from: string) => boolean,
): BannerMode | null {
  const states = sources
    .map((from) => ({ from, state: stateOf(from) }))
    .filter(({ from, state }) => state.kind === 'downloading' || !closed(from));
  const of = (kind: DevicePairState['kind']) =>
    states.filter(({ state }) => state.kind === kind).map(({ from }) => from);
  const downloading = states.flatMap(({ state }) => (state.kind === 'downloading' ? [state] : []));
  if (downloading.length > 0) {
    const known = downloading.flatMap(({ progress }) => (progress === null ? [] : [progress]));
    return {
      kind: 'downloading',
      sources: of('downloading'),
      // Several packs: the least far along, so the bar never runs ahead of them.
      progress: known.length === downloading.length ? Math.min(...known) : null,
    };
  }
  const downloadable = of('downloadable');
  if (downloadable.length > 0) return { kind: 'downloadable', sources: downloadable };
  const failed = of('failed');
  if (failed.length > 0) return { kind: 'failed', sources: failed };
  const unavailable = of('unavailable');
  return unavailable.length > 0 ? { kind: 'unavailable', sources: unavailable } : null;
}

/**
 * Once per chat, above its messages: the languages of this chat's messages that the
 * server has no translator for, into the reader's language. It says what still works and
 * how to translate one message on the device; where the browser translates on the device,
 * it offers the language pack and shows its download. Closed, it stays closed for those
 * languages in this chat on this device.
 */
export function TranslationBanner({
  conversationId,
  context,
}: {
  conversationId: string;
  context: TranslationRowContext | undefined;
}) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const device = deviceTranslator();
  useDevicePairs(device);
  const [closed, setClosed] = useState(() => closedPairs(conversationId));
  const target = context?.scope.translate ? context.scope.target : null;
  const translations = context?.translations;
  const sources = useMemo(
    () => (translations && target !== null ? unavailableSources(translations, target) : []),
    [translations, target],
  );

  useEffect(() => {
    if (!device || target === null) return;
    for (const from of sources) device.prepare(from, target);
  }, [device, sources, target]);

  if (target === null) return null;
  const mode = bannerMode(
    sources,
    (from) => (device ? device.pairState(from, target) : UNAVAILABLE),
    (from) => closed.has(`${from}>${target}`),
  );
  if (!mode) return null;

  const names = new Intl.ListFormat(locale, { type: 'conjunction' }).format(
    mode.sources.map((code) => languageName(code, locale)),
  );
  const into = languageName(target, locale);
  const download = () => {
    for (const from of mode.sources) device?.download(from, target);
  };
  const close = () => {
    const next = new Set(closed);
    for (const from of mode.sources) next.add(`${from}>${target}`);
    rememberClosed(conversationId, next);
    setClosed(next);
  };

  let body;
  switch (mode.kind) {
    case 'downloading': {
      const percent =
        mode.progress === null
          ? null
          : new Intl.NumberFormat(locale, { style: 'percent' }).format(mode.progress);
      body = (
        <div className="tt-translation-banner-text">
          <p>
            {t('translation.downloading', { languages: names })}
            {percent === null ? null : <span className="tt-translation-percent"> {percent}</span>}
          </p>
          <progress
            className="tt-translation-progress"
            aria-label={t('translation.downloadProgress')}
            max={1}
            {...(mode.progress === null ? {} : { value: mode.progress })}
          />
        </div>
      );
      break;
    }
    case 'downloadable':
    case 'failed':
      body = (
        <div className="tt-translation-banner-text">
          <p>
            {mode.kind === 'downloadable'
              ? t('translation.deviceCan', { languages: names, target: into })
              : t('translation.downloadFailed', { languages: names })}
          </p>
          <button type="button" className="tt-translation-banner-action" onClick={download}>
            {mode.kind === 'downloadable' ? t('translation.download') : t('translation.tryAgain')}
          </button>
        </div>
      );
      break;
    case 'unavailable':
      body = (
        <div className="tt-translation-banner-text">
          <p>{t('translation.serverCannot', { languages: names, target: into })}</p>
          <p>{t('translation.stillWorks')}</p>
          <p>{t('translation.howToOne')}</p>
        </div>
      );
      break;
  }

  return (
    <aside className="tt-translation-banner" aria-label={t('translation.title')}>
      <GlobalOutline aria-hidden className="tt-translation-banner-icon" />
      {body}
      {mode.kind !== 'downloading' ? (
        <button
          type="button"
          className="tt-icon-button"
          aria-label={t('translation.closeBanner')}
          onClick={close}
        >
          <CloseOutline aria-hidden />
        </button>
      ) : null}
    </aside>
  );
}
