import { CompassOutline, MessageOutline, UserContactOutline, UserOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { paths } from './paths';
import { badgeText } from './tab-badges';

export type TabKey = 'home' | 'contacts' | 'find' | 'user';

const tabs: { key: TabKey; path: string; icon: ReactNode }[] = [
  { key: 'home', path: paths.home, icon: <MessageOutline /> },
  { key: 'contacts', path: paths.contacts, icon: <UserContactOutline /> },
  { key: 'find', path: paths.find, icon: <CompassOutline /> },
  { key: 'user', path: paths.user, icon: <UserOutline /> },
];

export interface TabBarProps {
  badges?: Partial<Record<TabKey, number>>;
}

/** The bottom tab bar: 50 px high, selected colour #F39800, 24 px icons, 10 px labels. */
export function TabBar({ badges = {} }: TabBarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <nav className="tt-tabbar" aria-label={t('tab.nav')}>
      <ul>
        {tabs.map((tab) => {
          // The root page is the chat list when signed in.
          const current = pathname === tab.path || (tab.key === 'home' && pathname === paths.root);
          const badge = badgeText(badges[tab.key]);
          const badgeId = `tab-badge-${tab.key}`;
          return (
            <li key={tab.key}>
              <Link
                className="tt-tab"
                to={tab.path}
                replace
                aria-current={current ? 'page' : undefined}
                aria-describedby={badge ? badgeId : undefined}
              >
                <span className="tt-tab-icon" aria-hidden>
                  {tab.icon}
                  {badge ? <span className="tt-badge">{badge}</span> : null}
                </span>
                <span>{t(`tab.${tab.key}`)}</span>
              </Link>
              {/* Outside the link, so the tab's name stays "Contacts" whatever the count. */}
              {badge ? (
                <span id={badgeId} className="tt-visually-hidden">
                  {t('tab.badge', { number: badge })}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
