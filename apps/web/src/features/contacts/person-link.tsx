import type { UserCard } from '@teltlk/protocol';
import type { ReactNode } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { paths, withQuery } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import './contacts.css';
import '../../ui/tag.css';

/** The profile page (seeMeans) of a user. */
export function personPath(userId: string): string {
  return withQuery(paths.seeMeans, { userId });
}

export function OfficialTag() {
  const { t } = usePageTexts();
  return <span className="tt-tag">{t('contacts.official')}</span>;
}

export interface PersonLinkProps {
  user: UserCard;
  /** The shown name (a remark replaces the nickname). */
  name?: string;
  /** A second line, e.g. a greeting. */
  detail?: ReactNode;
  /** Where the row goes; the person's profile by default. */
  to?: string;
  avatarSize?: number;
}

/** A person's avatar and name, linking to their profile; the name is the link's name. */
export function PersonLink({ user, name, detail, to, avatarSize = 40 }: PersonLinkProps) {
  return (
    <Link className="tt-person-link" to={to ?? personPath(user.id)}>
      <Avatar id={user.id} name={user.nickname} url={user.avatarUrl} size={avatarSize} />
      <span className="tt-person-text">
        <span className="tt-person-name">
          {name ?? user.nickname}
          {user.official ? <OfficialTag /> : null}
        </span>
        {detail ? <span className="tt-person-detail">{detail}</span> : null}
      </span>
    </Link>
  );
}
