import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { ChoiceList } from '../../ui/choice-list';
import { suggestedMotherTongue } from '../../ui/languages';
import { useLanguageChoices } from '../../ui/pickers';
import { RegisterStepPage } from './register-step';
import { useRegistrationDraft } from './registration-draft';
import './auth.css';

/** `/pages/register/language`: mother tongue, the language messages are translated into. */
export function RegisterLanguagePage() {
  const { t, i18n } = usePageTexts();
  const navigate = useNavigate();
  const draft = useRegistrationDraft();
  const choices = useLanguageChoices();
  const [language, setLanguage] = useState<string>(
    () => draft.motherTongue ?? suggestedMotherTongue(i18n.language),
  );

  return (
    <RegisterStepPage
      step="language"
      title={t('register.languageTitle')}
      intro={t('register.languageIntro')}
      flush
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          draft.update({ motherTongue: language });
          void navigate(paths.inviteCode);
        }}
      >
        <ChoiceList
          legend={t('register.languageTitle')}
          name="motherTongue"
          searchable
          secondaryInName
          choices={choices}
          value={language}
          onChange={setLanguage}
        />
        <div className="tt-bottom-bar">
          <Button type="submit" block>
            {t('common.next')}
          </Button>
        </div>
      </form>
    </RegisterStepPage>
  );
}
