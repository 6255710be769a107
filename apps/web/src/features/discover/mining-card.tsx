import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { MiningStatus } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { usePiClient } from '../../api/pi';
import { growthKeys, useMining } from '../../api/use-growth';
import { Button } from '../../ui/button';
import { toastFailure } from '../../ui/failure-toast';
import { useUiLocale } from '../../ui/use-ui-locale';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { SwitchRow } from '../../ui/switch-row';
import { useCountdown } from '../../ui/use-countdown';
import { showToast } from '../../ui/toast';
import { accruedNow, clockText, formatPoints } from './points';
import { reminderFailed } from './reminder-failed';

/** Mining on Discover: check in, the time left and points so far, the rate kind by kind. */
export function MiningCard() {
  const { t } = usePageTexts();
  const mining = useMining();
  const queryClient = useQueryClient();
  const put = (status: MiningStatus) => queryClient.setQueryData(growthKeys.mining(), status);
  const checkIn = useMutation({
    mutationFn: () => api.call(routes.growth.checkIn),
    onSuccess: (status) => {
      put(status);
      showToast(t('discover.checkedIn'), { icon: 'success' });
    },
    onError: (error) => toastFailure(error),
  });
  const reminders = useMutation({
    mutationFn: (on: boolean) => api.call(routes.growth.setReminders, { body: { on } }),
    onSuccess: put,
    onError: (error) => reminderFailed(error, t('discover.reminderFailed')),
  });

  if (!mining.data) {
    return mining.error ? (
      <QueryError error={mining.error} onRetry={() => void mining.refetch()} />
    ) : (
      <PageSpinner />
    );
  }
  const status = mining.data;
  return (
    <section className="tt-mining" aria-labelledby="mining-title">
      <h2 id="mining-title" className="tt-section-title">
        {t('discover.mining')}
      </h2>
      <div className="tt-mining-card">
        {status.state === 'mining' && status.session ? (
          <Running status={status} answeredAt={mining.dataUpdatedAt} />
        ) : (
          <div className="tt-mining-idle">
            <p className="tt-mining-state">{t('discover.stateIdle')}</p>
            <Button block busy={checkIn.isPending} onClick={() => checkIn.mutate()}>
              {t('discover.checkIn')}
            </Button>
            <p className="tt-hint">{t('discover.checkInHint')}</p>
          </div>
        )}
        <Rate status={status} />
        {status.state === 'mining' && status.session && !status.session.adBoosted ? (
          <AdBooster status={status} onBoosted={put} />
        ) : null}
      </div>
      <ul className="tt-list">
        <li>
          <SwitchRow
            label={t('discover.reminders')}
            checked={reminders.isPending ? Boolean(reminders.variables) : status.reminders}
            disabled={reminders.isPending}
            onChange={(on) => reminders.mutate(on)}
          />
        </li>
      </ul>
    </section>
  );
}

function Running({ status, answeredAt }: { status: MiningStatus; answeredAt: number }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const session = status.session!;
  // Counted from the server's answer on this device's clock: only its progress since the
  // answer is used, so a device clock that is off changes nothing.
  const leftMs = session.endsAt - status.serverNow;
  const secondsLeft = useCountdown(answeredAt + leftMs);
  const now = answeredAt + Math.max(0, leftMs - secondsLeft * 1000);
  const earned = accruedNow(session.accrued, status.rate.total, answeredAt, now, leftMs);
  return (
    <div className="tt-mining-running">
      <p className="tt-mining-state">{t('discover.stateMining')}</p>
      <dl className="tt-mining-figures">
        <div>
          <dt>{t('discover.timeLeft')}</dt>
          <dd>
            <time dateTime={`PT${secondsLeft}S`} role="timer">
              {clockText(secondsLeft)}
            </time>
          </dd>
        </div>
        <div>
          <dt>{t('discover.accrued')}</dt>
          <dd>{formatPoints(earned, locale, 3)}</dd>
        </div>
      </dl>
    </div>
  );
}

/** The rate, kind by kind: basic, the ad's booster, invited members mining now. */
function Rate({ status }: { status: MiningStatus }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const { rate } = status;
  const perHour = (units: number) => t('discover.perHour', { points: formatPoints(units, locale) });
  const rows: [string, number][] = [[t('discover.rateBasic'), rate.basic]];
  if (rate.ad > 0) rows.push([t('discover.rateAd'), rate.ad]);
  if (rate.localMembers > 0) {
    rows.push([t('discover.rateLocal', { count: rate.localMembers }), rate.local]);
  }
  if (rate.otherMembers > 0) {
    rows.push([t('discover.rateOther', { count: rate.otherMembers }), rate.other]);
  }
  return (
    <div className="tt-mining-rate">
      <p className="tt-mining-rate-total">
        <span>{status.state === 'mining' ? t('discover.rateNow') : t('discover.rateStart')}</span>
        <strong>{perHour(rate.total)}</strong>
      </p>
      <dl className="tt-mining-rate-kinds">
        {rows.map(([label, units]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{perHour(units)}</dd>
          </div>
        ))}
      </dl>
      <p className="tt-hint">{t('discover.rateCap', { count: rate.membersCap })}</p>
    </div>
  );
}

/** In the Pi Browser: a rewarded ad for the session's booster, once a session. */
function AdBooster({
  status,
  onBoosted,
}: {
  status: MiningStatus;
  onBoosted: (status: MiningStatus) => void;
}) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const { client } = usePiClient();
  const watch = useMutation({
    mutationFn: async () => {
      const pi = client!;
      if (!(await pi.isAdReady('rewarded'))) await pi.requestAd('rewarded');
      const shown = await pi.showAd('rewarded');
      if (shown.result === 'AD_REWARDED' && shown.adId)
        return api.call(routes.growth.adBoost, { body: { adId: shown.adId } });
      return shown.result;
    },
    onSuccess: (outcome) => {
      if (typeof outcome !== 'string') return onBoosted(outcome);
      // Closed before the end, or no ad to show.
      showToast(
        outcome === 'AD_CLOSED' ? t('error.AD_NOT_REWARDED') : t('discover.adNotAvailable'),
      );
    },
    onError: (error) => toastFailure(error),
  });
  if (!client?.inPiBrowser || status.adBooster <= 0) return null;
  return (
    <Button variant="secondary" block busy={watch.isPending} onClick={() => watch.mutate()}>
      {t('discover.adBoost', { points: formatPoints(status.adBooster, locale) })}
    </Button>
  );
}
