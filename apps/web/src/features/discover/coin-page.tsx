import { POINTS_KINDS, type CoinRecord, type RankingBoard } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { useCoin, useCoinHistory } from '../../api/use-growth';
import { LoadMore } from '../../ui/load-more';
import { useUiLocale } from '../../ui/use-ui-locale';
import { Page } from '../../ui/page';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { formatDate } from '../../ui/time';
import { formatPoints } from './points';
import './discover.css';

/** `/pages/find/coin`: my points kind by kind, and their history. */
export function CoinPage() {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const coin = useCoin();
  return (
    <Page title={t('coin.title')} flush>
      {coin.data ? (
        <>
          <div className="tt-coin-total">
            <span>{t('coin.total')}</span>
            <strong>{formatPoints(coin.data.total, locale)}</strong>
          </div>
          <dl className="tt-list tt-coin-kinds">
            {POINTS_KINDS.map((kind) => (
              <div className="tt-row" key={kind}>
                <dt className="tt-row-label">{t(`coin.${kind}`)}</dt>
                <dd className="tt-row-value">{formatPoints(coin.data.balances[kind], locale)}</dd>
              </div>
            ))}
          </dl>
          <History />
        </>
      ) : coin.error ? (
        <QueryError error={coin.error} onRetry={() => void coin.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}

function History() {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const history = useCoinHistory();
  const records = history.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="tt-section" aria-labelledby="coin-history">
      <h2 id="coin-history" className="tt-section-title">
        {t('coin.history')}
      </h2>
      {history.error && records.length === 0 ? (
        <QueryError error={history.error} onRetry={() => void history.refetch()} />
      ) : history.isPending ? (
        <PageSpinner />
      ) : records.length === 0 ? (
        <p className="tt-hint tt-section-intro">{t('coin.empty')}</p>
      ) : (
        <ul className="tt-list">
          {records.map((record) => (
            <li className="tt-row tt-coin-record" key={record.id}>
              <span className="tt-row-label">
                <RecordTitle record={record} />
                <small>{formatDate(record.at, locale)}</small>
              </span>
              <span className="tt-row-value tt-coin-plus">
                +{formatPoints(record.total, locale)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={history} label={t('coin.more')} />
    </section>
  );
}

function RecordTitle({ record }: { record: CoinRecord }) {
  const { t } = usePageTexts();
  if (record.kind === 'mining') return <>{t('coin.mining')}</>;
  if (record.kind === 'ecological') {
    return (
      <>
        {t('coin.ecologicalReward')}
        {record.note ? <span dir="auto"> · {record.note}</span> : null}
      </>
    );
  }
  const [board = 'points', period = '', place = ''] = record.note.split(':');
  return (
    <>
      {t('coin.rankingReward', {
        board: t(`rank.${board as RankingBoard}`),
        period,
        place,
      })}
    </>
  );
}
