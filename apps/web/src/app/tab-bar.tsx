import { CompassOutline, MessageOutline, UserContactOutline, UserOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { paths, sectionOf, type Section } from './paths';
import { badgeText, useTabBadges } from './tab-badges';

export type TabKey = Section;

const tabs: { key: TabKey; path: string; icon: ReactNode }[] = [
  { key: 'home', path: paths.home, icon: <MessageOutline /> },
  { key: 'contacts', path: paths.contacts, icon: <UserContactOutline /> },
  { key: 'find', path: paths.find, icon: <CompassOutline /> },
  { key: 'user', path: paths.user, icon: <UserOutline /> },
];

export interface TabBarProps {
  badges?: Partial<Record<TabKey, number>>;
}

/**
 * The tabs as links: `page` marks the tab whose page is open, `true` (the rail's) the tab
 * whose section a page further in belongs to.
 */
function Tabs({
  className,
  badges,
  current,
}: {
  className: string;
  badges: Partial<Record<TabKey, number>>;
  current: (tab: (typeof tabs)[number]) => 'page' | 'true' | undefined;
}) {
  const { t } = useTranslation();
  return (
    <nav className={className} aria-label={t('tab.nav')}>
      <ul>
        {tabs.map((tab) => {
          const badge = badgeText(badges[tab.key]);
          const badgeId = `tab-badge-${tab.key}`;
          return (
            <li key={tab.key}>
              <Link
                className="tt-tab"
                to={tab.path}
                replace
                aria-current={current(tab)}
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

/** The bottom tab bar: 50 px high, selected colour #F39800, 24 px icons, 10 px labels. */
export function TabBar({ badges = {} }: TabBarProps) {
  const { pathname } = useLocation();
  return (
    <Tabs
      className="tt-tabbar"
      badges={badges}
      // The root page is the chat list when signed in.
      current={(tab) =>
        pathname === tab.path || (tab.key === 'home' && pathname === paths.root)
          ? 'page'
          : undefined
      }
    />
  );
}

/**
 * The desktop's navigation rail down the left edge, in place of the tab bar and on every
 * page: it marks the section the page belongs to (a chat is in Chats).
 */
export function NavRail() {
  const { pathname } = useLocation();
  const home = useTabBadges((state) => state.home);
  const contacts = useTabBadges((state) => state.contacts);
  const section = sectionOf(pathname);
  return (
    <Tabs
      className="tt-rail"
      badges={{ home, contacts }}
      current={(tab) =>
        pathname === tab.path || (tab.key === 'home' && pathname === paths.root)
          ? 'page'
          : section === tab.key
            ? 'true'
            : undefined
      }
    />
  );
}
