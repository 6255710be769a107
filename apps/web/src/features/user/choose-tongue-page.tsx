import { usePageTexts } from '../../i18n/pages';
import { ChoiceList } from '../../ui/choice-list';
import { useLanguageChoices } from '../../ui/pickers';
import { ProfileChoicePage } from './profile-choice-page';

/** `/pages/user/chooseTongue`: the mother tongue; the header's confirm button saves. */
export function ChooseTonguePage() {
  const { t } = usePageTexts();
  const choices = useLanguageChoices();
  const title = t('chooseTongue.title');
  return (
    <ProfileChoicePage
      field="motherTongue"
      title={title}
      renderList={(value, onChange) => (
        <ChoiceList
          legend={title}
          name="motherTongue"
          searchable
          secondaryInName
          choices={choices}
          value={value}
          onChange={onChange}
        />
      )}
    />
  );
}
