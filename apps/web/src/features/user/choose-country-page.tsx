import { usePageTexts } from '../../i18n/pages';
import { CountryList } from '../../ui/country-list';
import { ProfileChoicePage } from './profile-choice-page';

/** `/pages/user/chooseCountry`: the country or region; the header's confirm button saves. */
export function ChooseCountryPage() {
  const { t } = usePageTexts();
  const title = t('chooseCountry.title');
  return (
    <ProfileChoicePage
      field="country"
      title={title}
      renderList={(value, onChange) => (
        <CountryList legend={title} value={value} onChange={onChange} />
      )}
    />
  );
}
