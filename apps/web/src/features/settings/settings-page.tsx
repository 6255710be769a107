import {
  CONTACT_EMAIL,
  UI_LANGUAGES,
  type Settings,
  type UiLanguage,
  type UpdateSettingsBody,
} from '@teltlk/protocol';
import {
  BellOutline,
  FileOutline,
  InformationCircleOutline,
  LockOutline,
  MailOutline,
  UnorderedListOutline,
} from 'antd-mobile-icons';
import { usePageTexts } from '../../i18n/pages';
import { useSettings } from '../../api/queries';
import { paths } from '../../app/paths';
import { setUiLanguage } from '../../i18n/index';
import { isUiLanguage, resolveUiLanguage } from '../../i18n/language';
import { Button } from '../../ui/button';
import { ChoiceList } from '../../ui/choice-list';
import { LinkRow } from '../../ui/list-row';
import { Page } from '../../ui/page';
import { Section } from '../../ui/section';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { SwitchRow } from '../../ui/switch-row';
import { useLogout } from '../../app/use-logout';
import { useUpdateSettings } from './use-update-settings';

type Toggle = 'motherTongueFirst';

function Toggles({
  settings,
  onChange,
}: {
  settings: Settings;
  onChange: (patch: UpdateSettingsBody) => void;
}) {
  const { t } = usePageTexts();
  const row = (key: Toggle, hint?: string) => (
    <li>
      <SwitchRow
        label={t(`settings.${key}`)}
        hint={hint}
        checked={settings[key]}
        onChange={(value) => onChange({ [key]: value })}
      />
    </li>
  );
  return (
    <>
      <Section title={t('settings.translation')}>
        <ul className="tt-list">{row('motherTongueFirst', t('settings.motherTongueFirstHint'))}</ul>
      </Section>
      <Section title={t('settings.alerts')}>
        <ul className="tt-list">
          <li>
            <LinkRow
              to={paths.message}
              icon={<BellOutline />}
              label={t('settings.notifications')}
              value={settings.notifications ? t('settings.on') : t('settings.off')}
            />
          </li>
        </ul>
      </Section>
    </>
  );
}

/** `/pages/user/setting`: interface language, translation and alert switches, links, log out. */
export function SettingsPage() {
  const { t, i18n } = usePageTexts();
  const settings = useSettings();
  const update = useUpdateSettings();
  const logout = useLogout();
  const language = resolveUiLanguage(i18n.language);

  const chooseLanguage = (value: string) => {
    if (!isUiLanguage(value) || value === language) return;
    // The interface follows at once on this device; the server keeps it for other devices.
    void setUiLanguage(value);
    update.mutate({ uiLanguage: value satisfies UiLanguage });
  };

  return (
    <Page title={t('settings.title')} flush>
      <Section title={t('settings.language')}>
        <ChoiceList
          legend={t('settings.language')}
          name="uiLanguage"
          choices={UI_LANGUAGES.map((value) => ({ value, primary: t(`language.${value}`) }))}
          value={language}
          onChange={chooseLanguage}
        />
      </Section>
      {settings.data ? (
        <Toggles settings={settings.data} onChange={(patch) => update.mutate(patch)} />
      ) : settings.error ? (
        <QueryError error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <PageSpinner />
      )}
      <Section title={t('settings.general')}>
        <ul className="tt-list">
          <li>
            <LinkRow
              to={paths.about}
              icon={<InformationCircleOutline />}
              label={t('settings.about')}
            />
          </li>
          <li>
            <LinkRow
              to={paths.service}
              icon={<UnorderedListOutline />}
              label={t('settings.terms')}
            />
          </li>
          <li>
            <LinkRow to={paths.privacy} icon={<LockOutline />} label={t('settings.privacy')} />
          </li>
          <li>
            <LinkRow to={paths.agreement} icon={<FileOutline />} label={t('settings.agreement')} />
          </li>
          <li>
            <a className="tt-row" href={`mailto:${CONTACT_EMAIL}`}>
              <MailOutline className="tt-row-icon" aria-hidden />
              <span className="tt-row-label">{t('settings.contact')}</span>
              <span className="tt-row-value">{CONTACT_EMAIL}</span>
            </a>
          </li>
        </ul>
      </Section>
      <div className="tt-content">
        <Button
          variant="danger"
          block
          busy={logout.isPending}
          onClick={() => void logout.confirmAndLogout()}
        >
          {t('settings.logout')}
        </Button>
      </div>
    </Page>
  );
}
