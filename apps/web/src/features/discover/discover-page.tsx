import {
  HistogramOutline,
  PayCircleOutline,
  SystemQRcodeOutline,
  TeamOutline,
} from 'antd-mobile-icons';
import { usePageTexts } from '../../i18n/pages';
import { paths } from '../../app/paths';
import { LinkRow } from '../../ui/list-row';
import { Page } from '../../ui/page';
import { MiningCard } from './mining-card';
import './discover.css';

/** `/pages/find/find`: mining check-in, points, team, invitations and rankings. */
export function DiscoverPage() {
  const { t } = usePageTexts();
  return (
    <Page title={t('discover.title')} back={false} flush>
      <MiningCard />
      <ul className="tt-list tt-section">
        <li>
          <LinkRow to={paths.coin} icon={<PayCircleOutline />} label={t('discover.myCoin')} />
        </li>
        <li>
          <LinkRow to={paths.team} icon={<TeamOutline />} label={t('discover.myTeam')} />
        </li>
        <li>
          <LinkRow to={paths.twoCode} icon={<SystemQRcodeOutline />} label={t('discover.invite')} />
        </li>
        <li>
          <LinkRow to={paths.rank} icon={<HistogramOutline />} label={t('discover.rankings')} />
        </li>
      </ul>
    </Page>
  );
}
