import {
  InformationCircleOutline,
  KeyOutline,
  LockOutline,
  PayCircleOutline,
  RightOutline,
  ScanCodeOutline,
  SetOutline,
  SystemQRcodeOutline,
  TeamOutline,
  UserCircleOutline,
} from 'antd-mobile-icons';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { useMe } from '../../api/queries';
import { paths } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import { LinkRow } from '../../ui/list-row';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import './user.css';
import '../../ui/profile-card.css';

/** `/pages/user/user`: the Me tab. */
export function MinePage() {
  const { t } = usePageTexts();
  const me = useMe();
  return (
    <Page title={t('mine.title')} back={false} flush>
      {me.data ? (
        <Link className="tt-profile-card" to={paths.means}>
          <Avatar id={me.data.id} name={me.data.nickname} url={me.data.avatarUrl} size={64} />
          <span className="tt-row-label">
            <h2>{me.data.nickname}</h2>
            <p>{t('mine.teltlkId', { id: me.data.teltlkId })}</p>
          </span>
          <RightOutline className="tt-row-chevron" aria-hidden />
        </Link>
      ) : me.error ? (
        <QueryError error={me.error} onRetry={() => void me.refetch()} />
      ) : (
        <PageSpinner />
      )}
      <ul className="tt-list tt-section">
        <li>
          <LinkRow to={paths.means} icon={<UserCircleOutline />} label={t('mine.profile')} />
        </li>
        <li>
          <LinkRow to={paths.groupList} icon={<TeamOutline />} label={t('mine.groups')} />
        </li>
        <li>
          <LinkRow to={paths.twoCode} icon={<SystemQRcodeOutline />} label={t('mine.qrCode')} />
        </li>
        <li>
          <LinkRow to={paths.mobileDevice} icon={<ScanCodeOutline />} label={t('mine.scanLogin')} />
        </li>
        <li>
          <LinkRow to={paths.verification} icon={<KeyOutline />} label={t('mine.codeLogin')} />
        </li>
        <li>
          <LinkRow to={paths.wallet} icon={<PayCircleOutline />} label={t('mine.wallet')} />
        </li>
        <li>
          <LinkRow to={paths.accountSecurity} icon={<LockOutline />} label={t('mine.security')} />
        </li>
        <li>
          <LinkRow to={paths.setting} icon={<SetOutline />} label={t('mine.settings')} />
        </li>
        <li>
          <LinkRow to={paths.about} icon={<InformationCircleOutline />} label={t('mine.about')} />
        </li>
      </ul>
    </Page>
  );
}
