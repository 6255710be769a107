import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { TeamMember } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { growthKeys, useTeam, useTeamMembers } from '../../api/use-growth';
import { paths, withQuery } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { countryName } from '../../ui/countries';
import { LoadMore } from '../../ui/load-more';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import { reminderFailed } from './reminder-failed';
import './discover.css';

const profileOf = (userId: string) => withQuery(paths.seeMeans, { userId });

/** `/pages/find/team`: who invited me, and the people I invited with their mining now. */
export function TeamPage() {
  const { t } = usePageTexts();
  const team = useTeam();
  return (
    <Page title={t('team.title')} flush>
      {team.data ? (
        <>
          <section className="tt-section" aria-labelledby="team-inviter">
            <h2 id="team-inviter" className="tt-section-title">
              {t('team.invitedBy')}
            </h2>
            {team.data.inviter ? (
              <Link className="tt-row tt-team-person" to={profileOf(team.data.inviter.id)}>
                <Avatar
                  id={team.data.inviter.id}
                  name={team.data.inviter.nickname}
                  url={team.data.inviter.avatarUrl}
                  size={40}
                />
                <span className="tt-row-label" dir="auto">
                  {team.data.inviter.nickname}
                </span>
              </Link>
            ) : (
              <p className="tt-hint tt-section-intro">{t('team.noInviter')}</p>
            )}
          </section>
          <dl className="tt-team-counts">
            <div>
              <dt>{t('team.members')}</dt>
              <dd>{team.data.members}</dd>
            </div>
            <div>
              <dt>{t('team.counted')}</dt>
              <dd>{team.data.counted}</dd>
            </div>
            <div>
              <dt>{t('team.miningNow')}</dt>
              <dd>{team.data.miningNow}</dd>
            </div>
          </dl>
          <p className="tt-hint tt-section-intro">{t('team.countedHint')}</p>
          <Members />
        </>
      ) : team.error ? (
        <QueryError error={team.error} onRetry={() => void team.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}

function Members() {
  const { t } = usePageTexts();
  const members = useTeamMembers();
  const list = members.data?.pages.flatMap((page) => page.members) ?? [];
  return (
    <section className="tt-section" aria-labelledby="team-members">
      <h2 id="team-members" className="tt-section-title">
        {t('team.list')}
      </h2>
      {members.error && list.length === 0 ? (
        <QueryError error={members.error} onRetry={() => void members.refetch()} />
      ) : members.isPending ? (
        <PageSpinner />
      ) : list.length === 0 ? (
        <p className="tt-hint tt-section-intro">{t('team.empty')}</p>
      ) : (
        <ul className="tt-list">
          {list.map((member) => (
            <MemberRow key={member.user.id} member={member} />
          ))}
        </ul>
      )}
      <LoadMore list={members} label={t('team.more')} />
    </section>
  );
}

function MemberRow({ member }: { member: TeamMember }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const queryClient = useQueryClient();
  const nudge = useMutation({
    mutationFn: () => api.call(routes.growth.nudge, { params: { id: member.user.id } }),
    onSuccess: () => {
      showToast(t('team.nudged'), { icon: 'success' });
      void queryClient.invalidateQueries({ queryKey: growthKeys.members() });
    },
    onError: (error) => reminderFailed(error, t('discover.reminderFailed')),
  });
  const { user } = member;
  return (
    <li className="tt-row tt-team-person">
      <Link className="tt-team-who" to={profileOf(user.id)}>
        <Avatar id={user.id} name={user.nickname} url={user.avatarUrl} size={40} />
        <span className="tt-row-label">
          <span dir="auto">{user.nickname}</span>
          <small>
            {countryName(user.country, locale)} ·{' '}
            {member.mining ? t('team.mining') : t('team.notMining')}
            {member.counted ? null : ` · ${t('team.notCounted')}`}
          </small>
        </span>
      </Link>
      {member.canNudge ? (
        <Button
          small
          variant="secondary"
          busy={nudge.isPending}
          aria-label={t('team.nudgeLabel', { name: user.nickname })}
          onClick={() => nudge.mutate()}
        >
          {t('team.nudge')}
        </Button>
      ) : null}
    </li>
  );
}
