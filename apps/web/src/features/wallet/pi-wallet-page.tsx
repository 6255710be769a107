import { useMutation } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import { fromUnits, type PaymentRecord, type RechargeOrder } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { PI_SIGN_IN_SCOPES, usePiClient } from '../../api/pi';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { errorMessage, isHandledError, type Message, ruleMessage } from '../../ui/error-message';
import { formatMoney, typedUnits } from '../../ui/money';
import { Page } from '../../ui/page';
import { PasscodePad } from '../../ui/passcode-pad';
import { useUiLocale } from '../../ui/use-ui-locale';
import { PiOnlyNotice } from '../../ui/pi-only';
import { QueryError } from '../../ui/query-error';
import { Sheet } from '../../ui/sheet';
import { PageSpinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { relativeTime } from '../../ui/time';
import { showToast } from '../../ui/toast';
import { useMessageText } from '../../ui/use-message';
import {
  useWallet,
  useWalletPayments,
  useWalletRefresh,
  useWalletRules,
} from '../../api/use-wallet';
import './wallet.css';

/** `/pages/user/walletPi`: the Pi balance, what is on hold, recharge, withdraw, the latest records. */
export function PiWalletPage() {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const wallet = useWallet();
  const [open, setOpen] = useState<'recharge' | 'withdraw' | null>(null);
  const pi = wallet.data?.balances.find((b) => b.currency === 'PI');
  return (
    <Page title={t('wallet.piTitle')} flush>
      {pi ? (
        <>
          <div className="tt-balance-card">
            <p>{t('wallet.available')}</p>
            <strong data-testid="pi-available">{formatMoney(pi.available, 'PI', locale)}</strong>
            <p>
              {t('wallet.held')}{' '}
              <span data-testid="pi-held">{formatMoney(pi.held, 'PI', locale)}</span>
            </p>
          </div>
          <div className="tt-balance-actions">
            <Button onClick={() => setOpen('recharge')}>{t('wallet.recharge')}</Button>
            <Button variant="secondary" onClick={() => setOpen('withdraw')}>
              {t('wallet.withdraw')}
            </Button>
          </div>
          <section className="tt-section" aria-labelledby="pi-records">
            <h2 id="pi-records" className="tt-section-title">
              {t('wallet.history')}
            </h2>
            <Records kind={null} pageSize={5} more={false} />
            <p className="tt-content">
              <Link className="tt-link-button" to={paths.balance}>
                {t('wallet.allRecords')}
              </Link>
            </p>
          </section>
          <RechargeSheet visible={open === 'recharge'} onClose={() => setOpen(null)} />
          <WithdrawSheet
            visible={open === 'withdraw'}
            available={pi.available}
            onClose={() => setOpen(null)}
          />
        </>
      ) : wallet.error ? (
        <QueryError error={wallet.error} onRetry={() => void wallet.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}

/** `/pages/user/balance`: every record, by kind, a page at a time, with the withdrawal count. */
export function BalancePage() {
  const { t } = usePageTexts();
  const [kind, setKind] = useState<PaymentRecord['kind'] | null>(null);
  const withdrawals = useWalletPayments('withdraw', 1);
  const count = withdrawals.data?.pages[0]?.total;
  return (
    <Page title={t('wallet.allRecords')} flush>
      <div className="tt-filter-tabs" role="group" aria-label={t('wallet.history')}>
        {([null, 'recharge', 'withdraw'] as const).map((k) => (
          <Button
            key={k ?? 'all'}
            small
            variant={k === kind ? 'primary' : 'secondary'}
            aria-pressed={k === kind}
            onClick={() => setKind(k)}
          >
            {t(
              k === null
                ? 'wallet.filterAll'
                : k === 'recharge'
                  ? 'wallet.kindRecharge'
                  : 'wallet.kindWithdraw',
            )}
          </Button>
        ))}
      </div>
      {count !== undefined ? (
        <p className="tt-hint tt-content">{t('wallet.withdrawCount', { count })}</p>
      ) : null}
      <Records kind={kind} pageSize={20} more />
    </Page>
  );
}

function Records({
  kind,
  pageSize,
  more,
}: {
  kind: PaymentRecord['kind'] | null;
  pageSize: number;
  more: boolean;
}) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const records = useWalletPayments(kind, pageSize);
  if (records.error) {
    return <QueryError error={records.error} onRetry={() => void records.refetch()} />;
  }
  if (!records.data) return <PageSpinner />;
  const rows = records.data.pages.flatMap((page) => page.payments);
  if (rows.length === 0)
    return <EmptyState title={t('wallet.noRecords')} text={t('wallet.recordsHint')} />;
  const now = Date.now();
  return (
    <>
      <ul className="tt-list" aria-label={t('wallet.history')}>
        {rows.map((record) => (
          <li key={record.id} className="tt-record" data-testid="wallet-record">
            <span>
              <strong>
                {t(record.kind === 'recharge' ? 'wallet.kindRecharge' : 'wallet.kindWithdraw')}
              </strong>
              <small>{relativeTime(record.createdAt, now, locale)}</small>
            </span>
            <span className="tt-record-amount">
              <strong>
                {record.kind === 'recharge' ? '+' : '−'}
                {formatMoney(record.amount, record.currency, locale)}
              </strong>
              <small>
                {t(STATE_KEYS[record.state])}
                {record.fee > 0
                  ? ` · ${t('wallet.fee', { fee: formatMoney(record.fee, record.currency, locale) })}`
                  : ''}
              </small>
            </span>
          </li>
        ))}
      </ul>
      {more && records.hasNextPage ? (
        <Button
          block
          variant="secondary"
          busy={records.isFetchingNextPage}
          onClick={() => void records.fetchNextPage()}
        >
          {t('wallet.loadMore')}
        </Button>
      ) : null}
    </>
  );
}

const STATE_KEYS = {
  pending: 'wallet.statePending',
  completed: 'wallet.stateCompleted',
  cancelled: 'wallet.stateCancelled',
  failed: 'wallet.stateFailed',
} as const;

/** An amount field's error, or the units typed. */
function checkAmount(text: string): { units: number } | { error: Message } {
  const units = typedUnits(text, 'PI');
  return units === null || units <= 0 ? { error: ruleMessage('amount') } : { units };
}

/**
 * Recharge: the server makes an order, the Pi SDK takes the person through paying it, and
 * Pi's callbacks go to the server, which approves, completes and credits.
 */
function RechargeSheet({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const rules = useWalletRules();
  const refresh = useWalletRefresh();
  const { client } = usePiClient();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const pay = useMutation({
    mutationFn: async (typed: string) => {
      if (!client) throw new Error('Pi is not ready');
      // Payments Pi still holds unfinished are settled first, as Pi asks.
      await client.authenticate(PI_SIGN_IN_SCOPES, (payment) => {
        void api
          .call(routes.pi.resolveIncompletePayment, { body: { paymentId: payment.identifier } })
          .then(refresh);
      });
      const order: RechargeOrder = await api.call(routes.payments.recharge, {
        body: { amount: typed },
      });
      showToast(t('wallet.rechargeStarted'));
      await new Promise<void>((resolve, reject) => {
        void client
          .createPayment(order.payment, {
            onReadyForServerApproval: (paymentId) => {
              void api.call(routes.payments.approveRecharge, { body: { paymentId } }).catch(reject);
            },
            onReadyForServerCompletion: (paymentId, txid) => {
              api
                .call(routes.payments.completeRecharge, { body: { paymentId, txid } })
                .then(() => resolve(), reject);
            },
            onCancel: (paymentId) => {
              void api
                .call(routes.payments.cancelRecharge, { body: { paymentId } })
                .finally(() => reject(new RechargeCancelled()));
            },
            onError: (failure, payment) => {
              const settle = payment
                ? api.call(routes.payments.cancelRecharge, {
                    body: { paymentId: payment.identifier },
                  })
                : Promise.resolve();
              void settle.finally(() => reject(failure));
            },
          })
          .catch(reject);
      });
      return typed;
    },
    onSuccess: (typed) => {
      void refresh();
      showToast(t('wallet.recharged', { amount: typed }), { icon: 'success' });
      onClose();
    },
    onError: (failure) => {
      void refresh();
      if (failure instanceof RechargeCancelled) {
        showToast(t('wallet.rechargeCancelled'));
        return;
      }
      setError(failure instanceof ApiError ? errorMessage(failure) : { key: 'fallback.modify' });
    },
  });
  const max = rules.data ? fromUnits(rules.data.rechargeMax, 'PI') : null;
  return (
    <Sheet
      visible={visible}
      title={t('wallet.recharge')}
      onClose={onClose}
      className="tt-wallet-sheet"
    >
      {client && !client.inPiBrowser ? (
        <PiOnlyNotice />
      ) : (
        <form
          className="tt-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const checked = checkAmount(amount);
            if ('error' in checked) {
              setError(checked.error);
              return;
            }
            setError(null);
            pay.mutate(fromUnits(checked.units, 'PI'));
          }}
        >
          <TextField
            label={t('wallet.amount')}
            value={amount}
            onChange={setAmount}
            inputMode="decimal"
            autoComplete="off"
            hint={max ? t('wallet.rechargeHint', { max }) : undefined}
            error={text(error)}
          />
          <Button type="submit" block busy={pay.isPending}>
            {t('wallet.recharge')}
          </Button>
        </form>
      )}
    </Sheet>
  );
}

class RechargeCancelled extends Error {}

/** Withdraw: the amount, then the payment password on the pad; the server does the rest. */
function WithdrawSheet({
  visible,
  available,
  onClose,
}: {
  visible: boolean;
  available: number;
  onClose: () => void;
}) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const locale = useUiLocale();
  const rules = useWalletRules();
  const refresh = useWalletRefresh();
  const [amount, setAmount] = useState('');
  const [units, setUnits] = useState<number | null>(null);
  const [passcode, setPasscode] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const send = useMutation({
    mutationFn: (password: string) =>
      api.call(routes.payments.withdraw, {
        body: { amount: fromUnits(units ?? 0, 'PI'), password },
      }),
    onSuccess: (record) => {
      void refresh();
      showToast(
        record.state === 'completed'
          ? t('wallet.withdrawn', { amount: fromUnits(record.amount, 'PI') })
          : t('wallet.withdrawPending'),
        { icon: 'success' },
      );
      onClose();
    },
    onError: (failure) => {
      void refresh();
      setPasscode('');
      // Given up at the step-up: the password is typed again when they are ready.
      if (isHandledError(failure)) return;
      const code = failure instanceof ApiError ? failure.code : '';
      // A wrong password is typed again; anything else goes back to the amount.
      if (code !== 'PAYMENT_PASSWORD_INCORRECT') setUnits(null);
      setError(errorMessage(failure, 'modify'));
    },
  });
  const format = (value: number) => formatMoney(value, 'PI', locale);
  const r = rules.data;
  return (
    <Sheet
      visible={visible}
      title={t('wallet.withdraw')}
      onClose={onClose}
      className="tt-wallet-sheet"
    >
      {r && !r.withdrawEnabled ? (
        <p className="tt-alert" role="alert">
          {t('wallet.withdrawOff')}
        </p>
      ) : units === null ? (
        <form
          className="tt-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const checked = checkAmount(amount);
            if ('error' in checked) {
              setError(checked.error);
              return;
            }
            if (r && checked.units + r.withdrawFee > available) {
              setError({ key: 'error.INSUFFICIENT_BALANCE' });
              return;
            }
            setError(null);
            setUnits(checked.units);
          }}
        >
          <TextField
            label={t('wallet.amount')}
            value={amount}
            onChange={setAmount}
            inputMode="decimal"
            autoComplete="off"
            hint={
              r
                ? t('wallet.withdrawHint', {
                    fee: format(r.withdrawFee),
                    min: format(r.withdrawMin),
                    left: format(r.withdrawLeftToday),
                  })
                : undefined
            }
            error={text(error)}
          />
          <Button type="submit" block>
            {t('common.next')}
          </Button>
        </form>
      ) : (
        <>
          <p className="tt-hint">
            {t('wallet.withdrawTotal', { total: format(units + (r?.withdrawFee ?? 0)) })}
          </p>
          <PasscodePad
            prompt={t('wallet.enterToPay')}
            value={passcode}
            onChange={setPasscode}
            onComplete={(password) => send.mutate(password)}
            error={text(error)}
            disabled={send.isPending}
          />
        </>
      )}
    </Sheet>
  );
}
