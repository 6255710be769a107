import { UI_LANGUAGES } from '@teltlk/protocol';
import { GlobalOutline } from 'antd-mobile-icons';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { setUiLanguage } from '../../i18n';
import { isUiLanguage, resolveUiLanguage } from '../../i18n/language';

/** The interface language, changeable before signing in. Option names are native. */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className="tt-language-select">
      <GlobalOutline aria-hidden />
      <label htmlFor={id}>{t('language.label')}</label>
      <select
        id={id}
        value={resolveUiLanguage(i18n.language)}
        onChange={(event) => {
          const value = event.target.value;
          if (isUiLanguage(value)) void setUiLanguage(value);
        }}
      >
        {UI_LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {t(`language.${language}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
