import { usePageTexts } from '../../i18n/pages';
import { useGoBack } from '../../ui/page-header';
import { Page } from '../../ui/page';
import { CountryList } from '../../ui/country-list';
import { useContactDraft } from './contact-draft';

/** `/pages/register/area`: choose the country or region code of a phone number. */
export function AreaPage() {
  const { t } = usePageTexts();
  const goBack = useGoBack();
  const dialCountry = useContactDraft((state) => state.dialCountry);
  const update = useContactDraft((state) => state.update);
  return (
    <Page title={t('register.areaTitle')} flush>
      <CountryList
        legend={t('register.areaTitle')}
        value={dialCountry}
        withDialCode
        mode="button"
        onChange={(code) => {
          update({ dialCountry: code });
          goBack();
        }}
      />
    </Page>
  );
}
