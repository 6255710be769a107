import type { UiLanguage } from '@teltlk/protocol';
import { useTranslation } from 'react-i18next';
import { resolveUiLanguage } from '../../i18n/language';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { formatDate } from '../../ui/time';
import { en_US } from './documents-en_US';
import { zh_CN } from './documents-zh_CN';
import { zh_TW } from './documents-zh_TW';
import { LEGAL_UPDATED, type LegalDocumentKind, type LegalTexts } from './legal-document';
import './legal.css';

export const legalTexts: Record<UiLanguage, LegalTexts> = { en_US, zh_CN, zh_TW };

function LegalPage({ kind }: { kind: LegalDocumentKind }) {
  const { t, i18n } = useTranslation();
  const locale = useUiLocale();
  const sections = legalTexts[resolveUiLanguage(i18n.language)][kind];
  const title = t(`legal.${kind}`);
  return (
    <Page title={title} flush>
      <article className="tt-doc">
        <p className="tt-hint">{t('legal.updated', { date: formatDate(LEGAL_UPDATED, locale) })}</p>
        {sections.map((section) => (
          <section key={section.heading}>
            <h3>{section.heading}</h3>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
            {section.items ? (
              <ul>
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
      </article>
    </Page>
  );
}

/** `/pages/login/Agreement`: the user agreement. */
export function AgreementPage() {
  return <LegalPage kind="agreement" />;
}

/** `/pages/login/Service`: the terms of service. */
export function ServicePage() {
  return <LegalPage kind="service" />;
}

/** `/pages/login/Privacy`: the privacy policy. */
export function PrivacyPage() {
  return <LegalPage kind="privacy" />;
}
