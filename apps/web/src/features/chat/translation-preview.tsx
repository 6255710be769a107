import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import { findLanguage } from '@teltlk/protocol';
import { useEffect, useMemo, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { errorMessage } from '../../ui/error-message';
import { languageOptions, optionLabel } from '../../ui/languages';
import { useUiLocale } from '../../ui/use-ui-locale';
import { useMessageText } from '../../ui/use-message';
import { deviceTranslator } from './device-translator';
import type { TranslationSource } from '../../ui/conversation/translation-view';

/** The draft is translated this long after the last keystroke, not on every one. */
export const PREVIEW_DEBOUNCE_MS = 600;
/** Groups have no one other language: the preview starts in English. */
const GROUP_PREVIEW_LANGUAGE = 'en';

export interface PreviewOptions {
  /** The other person's mother tongue (single chats); null when not known. */
  to: string | null;
  /** Groups: the writer picks the language of the preview. */
  pickLanguage: boolean;
  /** The writer's mother tongue: the source for the on-device translator. */
  from: string | null;
  source: TranslationSource;
}

type PreviewState =
  | { kind: 'idle' }
  | { kind: 'loading'; previous: string | null }
  | { kind: 'done'; text: string }
  | { kind: 'error'; error: unknown };

/** The translation on screen, kept while the next one is on its way. */
function lastText(state: PreviewState): string | null {
  if (state.kind === 'done') return state.text;
  return state.kind === 'loading' ? state.previous : null;
}

/** The draft in the other language: by the server, else on the device, else an error. */
async function translateDraft(
  text: string,
  to: string,
  from: string | null,
  source: TranslationSource,
): Promise<string> {
  if (source === 'server')
    return (await api.call(routes.translation.preview, { body: { text, to } })).text;
  if (from === to) return text;
  const device = source === 'device' ? deviceTranslator() : null;
  const result = device && from !== null ? await device.translate(text, from, to) : null;
  if (result === null) throw new ApiError('TRANSLATION_UNAVAILABLE', 0);
  return result;
}

/**
 * The line under the message box that shows the draft translated into the other
 * person's language (a picked one in groups), so the writer can check it reads right.
 */
export function TranslationPreview({ text, options }: { text: string; options: PreviewOptions }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const messageText = useMessageText();
  const [picked, setPicked] = useState(GROUP_PREVIEW_LANGUAGE);
  const [state, setState] = useState<PreviewState>({ kind: 'idle' });
  const to = options.pickLanguage ? picked : options.to;
  const draft = text.trim();
  const { source, from } = options;
  const languages = useMemo(
    () => (options.pickLanguage ? languageOptions(locale) : []),
    [options.pickLanguage, locale],
  );

  useEffect(() => {
    if (!draft || to === null) {
      setState({ kind: 'idle' });
      return;
    }
    setState((current) => ({ kind: 'loading', previous: lastText(current) }));
    let live = true;
    const timer = setTimeout(() => {
      translateDraft(draft, to, from, source).then(
        (translated) => {
          if (live) setState({ kind: 'done', text: translated });
        },
        (error: unknown) => {
          if (live) setState({ kind: 'error', error });
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [draft, to, from, source]);

  let line: string;
  switch (state.kind) {
    case 'idle':
      line =
        to === null
          ? t('translation.previewNoLanguage')
          : t('translation.previewHint', { language: findLanguage(to)?.native ?? to });
      break;
    case 'loading':
      line = state.previous ?? t('translation.pending');
      break;
    case 'done':
      line = state.text;
      break;
    case 'error':
      line = messageText(errorMessage(state.error)) ?? '';
      break;
  }

  return (
    <div className="tt-composer-preview">
      {options.pickLanguage ? (
        <select
          className="tt-composer-preview-language"
          aria-label={t('translation.previewInto')}
          value={picked}
          onChange={(event) => setPicked(event.target.value)}
        >
          {languages.map((language) => (
            <option key={language.code} value={language.code}>
              {optionLabel(language)}
            </option>
          ))}
        </select>
      ) : null}
      <p
        className={
          state.kind === 'error' ? 'tt-composer-preview-text tt-error' : 'tt-composer-preview-text'
        }
        aria-live="polite"
        aria-busy={state.kind === 'loading' || undefined}
        lang={state.kind === 'done' && to !== null ? to : undefined}
      >
        {line}
      </p>
    </div>
  );
}
