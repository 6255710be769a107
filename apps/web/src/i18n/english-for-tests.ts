import i18next, { type i18n as I18n } from 'i18next';
import { calls_en_US } from './calls-en_US';
import { en_US } from './en_US';
import { pages_en_US } from './pages-en_US';
import { security_en_US } from './security-en_US';

/**
 * Sets up an i18next instance with the English catalogs (every namespace, the main one
 * the others' fallback as in the app) and the app's `{name}` placeholders, for component
 * tests that render outside the app.
 */
export async function initEnglish(i18n: I18n): Promise<void> {
  await i18n.init({
    lng: 'en_US',
    resources: {
      en_US: {
        translation: en_US,
        pages: pages_en_US,
        security: security_en_US,
        calls: calls_en_US,
      },
    },
    fallbackNS: 'translation',
    interpolation: { prefix: '{', suffix: '}', escapeValue: false },
    showSupportNotice: false,
  });
}

let english: Promise<I18n> | undefined;

/** One English instance, set up on first use, for the tests' stand-in of react-i18next. */
export function englishForTests(): Promise<I18n> {
  english ??= (async () => {
    const i18n = i18next.createInstance();
    await initEnglish(i18n);
    return i18n;
  })();
  return english;
}
