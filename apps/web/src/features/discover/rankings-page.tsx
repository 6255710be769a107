import { RANKING_BOARDS, type RankingBoard, type RankingResult } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { Link, useSearchParams } from 'react-router';
import { useRanking } from '../../api/use-growth';
import { paths, withQuery } from '../../app/paths';
import { Avatar } from '../../ui/avatar';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { formatPoints } from './points';
import './discover.css';

type Period = 'current' | 'previous';

const boardOf = (value: string | null): RankingBoard =>
  (RANKING_BOARDS as readonly string[]).includes(value ?? '') ? (value as RankingBoard) : 'points';

/** `/pages/find/rank?board=…&period=…`: global points, monthly and daily invites. */
export function RankingsPage() {
  const { t } = usePageTexts();
  const [params, setParams] = useSearchParams();
  const board = boardOf(params.get('board'));
  const period: Period =
    board !== 'points' && params.get('period') === 'previous' ? 'previous' : 'current';
  const go = (next: { board?: RankingBoard; period?: Period }) =>
    setParams(
      { board: next.board ?? board, period: next.period ?? (next.board ? 'current' : period) },
      { replace: true },
    );
  const periods: [Period, string][] =
    board === 'monthInvites'
      ? [
          ['current', t('rank.thisMonth')],
          ['previous', t('rank.lastMonth')],
        ]
      : board === 'dayInvites'
        ? [
            ['current', t('rank.today')],
            ['previous', t('rank.yesterday')],
          ]
        : [];
  return (
    <Page title={t('rank.title')} flush>
      <div className="tt-rank-tabs" role="tablist" aria-label={t('rank.title')}>
        {RANKING_BOARDS.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            aria-selected={each === board}
            className="tt-rank-tab"
            onClick={() => go({ board: each })}
          >
            {t(`rank.${each}`)}
          </button>
        ))}
      </div>
      {periods.length > 0 ? (
        <div className="tt-rank-periods" role="group">
          {periods.map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={value === period}
              className="tt-rank-period"
              onClick={() => go({ period: value })}
            >
              {label}
            </button>
          ))}
        </div>
      ) : null}
      <Board board={board} period={period} />
    </Page>
  );
}

function Board({ board, period }: { board: RankingBoard; period: Period }) {
  const { t } = usePageTexts();
  const ranking = useRanking(board, period);
  if (!ranking.data) {
    return ranking.error ? (
      <QueryError error={ranking.error} onRetry={() => void ranking.refetch()} />
    ) : (
      <PageSpinner />
    );
  }
  const data = ranking.data;
  return (
    <section aria-label={t(`rank.${board}`)}>
      <Mine data={data} />
      {data.top.length === 0 ? (
        <p className="tt-hint tt-section-intro">{t('rank.empty')}</p>
      ) : (
        <ol className="tt-list tt-rank-list">
          {data.top.map((entry) => (
            <li key={entry.user.id}>
              <Link
                className="tt-row tt-rank-row"
                to={withQuery(paths.seeMeans, { userId: entry.user.id })}
              >
                <span className={`tt-rank-place tt-rank-place-${Math.min(entry.rank, 4)}`}>
                  {entry.rank}
                </span>
                <Avatar
                  id={entry.user.id}
                  name={entry.user.nickname}
                  url={entry.user.avatarUrl}
                  size={36}
                />
                <span className="tt-row-label" dir="auto">
                  {entry.user.nickname}
                </span>
                <Value board={board} value={entry.value} />
              </Link>
            </li>
          ))}
        </ol>
      )}
      <p className="tt-hint tt-section-intro">
        {data.period === 'all' ? t('rank.allTime') : data.period} · {t('rank.periodNote')}
      </p>
    </section>
  );
}

function Mine({ data }: { data: RankingResult }) {
  const { t } = usePageTexts();
  return (
    <div className="tt-rank-mine">
      <span>{t('rank.me')}</span>
      <strong>
        {data.me.rank === null ? t('rank.notRanked') : t('rank.place', { rank: data.me.rank })}
      </strong>
      <Value board={data.board} value={data.me.value} />
    </div>
  );
}

function Value({ board, value }: { board: RankingBoard; value: number }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  return (
    <span className="tt-row-value">
      {board === 'points'
        ? t('rank.pointsValue', { points: formatPoints(value, locale) })
        : t('rank.invites', { count: value })}
    </span>
  );
}
