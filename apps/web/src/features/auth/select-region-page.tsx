import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { guessRegion } from '../../ui/countries';
import { CountryList } from '../../ui/country-list';
import { RegisterStepPage } from './register-step';
import { useContactDraft } from './contact-draft';
import { useRegistrationDraft } from './registration-draft';
import './auth.css';

/** `/pages/register/SelectRegion`: country or region of residence. */
export function SelectRegionPage() {
  const { t, i18n } = usePageTexts();
  const navigate = useNavigate();
  const draft = useRegistrationDraft();
  const dialCountry = useContactDraft((state) => state.dialCountry);
  const [country, setCountry] = useState<string>(
    () =>
      draft.country ??
      (draft.channel === 'phone' && dialCountry
        ? dialCountry
        : guessRegion(navigator.languages ?? [], i18n.language)),
  );

  return (
    <RegisterStepPage
      step="region"
      title={t('register.regionTitle')}
      intro={t('register.regionIntro')}
      flush
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          draft.update({ country });
          void navigate(paths.registerLanguage);
        }}
      >
        <CountryList legend={t('register.regionTitle')} value={country} onChange={setCountry} />
        <div className="tt-bottom-bar">
          <Button type="submit" block>
            {t('common.next')}
          </Button>
        </div>
      </form>
    </RegisterStepPage>
  );
}
