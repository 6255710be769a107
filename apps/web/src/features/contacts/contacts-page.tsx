import IndexBar from 'antd-mobile/es/components/index-bar';
import {
  StarOutline,
  StopOutline,
  TeamOutline,
  UserAddOutline,
  UserContactOutline,
} from 'antd-mobile-icons';
import { useEffect, useMemo, useRef } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { paths } from '../../app/paths';
import { badgeText } from '../../app/tab-badges';
import { LinkRow } from '../../ui/list-row';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { pendingReceivedCount } from '../../api/contact-cache';
import { PersonLink } from './person-link';
import { friendName, sectionFriends, type FriendSection } from './sections';
import { useFriendRequests, useFriends } from '../../api/use-contacts';
import './contacts.css';
import '../../ui/count-badge.css';

/** The top panel of the index bar: its letter is the "back to top" mark. */
const TOP_INDEX = '↑';

function PendingCount({ count }: { count: number }) {
  const { t } = usePageTexts();
  const text = badgeText(count);
  if (!text) return null;
  return (
    <>
      <span className="tt-count-badge" aria-hidden>
        {text}
      </span>
      <span className="tt-visually-hidden">{t('contacts.pending', { count: text })}</span>
    </>
  );
}

function Entries({ pending }: { pending: number }) {
  const { t } = usePageTexts();
  return (
    <ul className="tt-list">
      <li>
        <LinkRow to={paths.addFriend} icon={<UserAddOutline />} label={t('contacts.addFriend')} />
      </li>
      <li>
        <LinkRow
          to={paths.newFriend}
          icon={<UserContactOutline />}
          label={t('contacts.newFriends')}
          value={pending > 0 ? <PendingCount count={pending} /> : undefined}
        />
      </li>
      <li>
        <LinkRow
          to={paths.contactsGroupChat}
          icon={<TeamOutline />}
          label={t('contacts.groupChats')}
        />
      </li>
      <li>
        <LinkRow
          to={paths.officialAccounts}
          icon={<StarOutline />}
          label={t('contacts.officialAccounts')}
        />
      </li>
      <li>
        <LinkRow to={paths.blacklist} icon={<StopOutline />} label={t('contacts.blacklist')} />
      </li>
    </ul>
  );
}

function FriendList({ section }: { section: FriendSection }) {
  return (
    <ul className="tt-list tt-friend-list">
      {section.friends.map((friend) => (
        <li key={friend.user.id}>
          <PersonLink user={friend.user} name={friendName(friend)} />
        </li>
      ))}
    </ul>
  );
}

/** `/pages/contacts/contacts`: entries, then friends in alphabetical sections with an index bar. */
export function ContactsPage() {
  const { t } = usePageTexts();
  const friends = useFriends();
  const sections = useMemo(() => sectionFriends(friends.data?.friends ?? []), [friends.data]);
  const requests = useFriendRequests();
  const pending = pendingReceivedCount(requests.data);
  const boxRef = useRef<HTMLDivElement>(null);
  const count = friends.data?.friends.length ?? 0;

  useEffect(() => {
    // The index bar's letters are pointer-only divs; screen readers and keyboards move by
    // the section headings instead, so the letters are hidden from them.
    boxRef.current?.querySelector('.adm-index-bar-sidebar')?.setAttribute('aria-hidden', 'true');
  });

  const footer = friends.data ? (
    <>
      {count === 0 ? (
        <p className="tt-contacts-empty">
          {pending > 0 ? t('contacts.pendingText') : t('contacts.emptyText')}
        </p>
      ) : null}
      <p className="tt-contacts-count">{t('contacts.friendCount', { count })}</p>
    </>
  ) : friends.error ? (
    <QueryError error={friends.error} onRetry={() => void friends.refetch()} />
  ) : (
    <PageSpinner />
  );

  // Without friends there is nothing to jump between: no index bar, whose only letter
  // would be the lone "back to top" mark.
  if (sections.length === 0)
    return (
      <Page title={t('contacts.title')} back={false} flush>
        <div className="tt-contacts">
          <Entries pending={pending} />
          {footer}
        </div>
      </Page>
    );

  return (
    <Page title={t('contacts.title')} back={false} flush>
      <div className="tt-contacts" ref={boxRef}>
        <IndexBar>
          <IndexBar.Panel index={TOP_INDEX} title={t('contacts.title')} className="tt-contacts-top">
            <Entries pending={pending} />
          </IndexBar.Panel>
          {sections.map((section, position) => (
            <IndexBar.Panel
              key={section.letter}
              index={section.letter}
              title={<h2 className="tt-index-title">{section.letter}</h2>}
            >
              <FriendList section={section} />
              {position === sections.length - 1 ? footer : null}
            </IndexBar.Panel>
          ))}
        </IndexBar>
      </div>
    </Page>
  );
}
