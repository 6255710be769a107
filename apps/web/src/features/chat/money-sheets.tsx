import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import { ENVELOPE_SHARES_MAX, fromUnits, type EnvelopeView } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { errorMessage, isHandledError, type Message, ruleMessage } from '../../ui/error-message';
import { formatMoney, typedUnits } from '../../ui/money';
import { PasscodePad } from '../../ui/passcode-pad';
import { useUiLocale } from '../../ui/use-ui-locale';
import { Sheet } from '../../ui/sheet';
import { PageSpinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { useMessageText } from '../../ui/use-message';
import { useWallet, walletKeys } from '../../api/use-wallet';

const envelopeKey = (id: string) => ['me', 'wallet', 'envelope', id] as const;

export function EnvelopeSheet({
  visible,
  onClose,
  envelopeId,
  senderName,
  nameOf,
  own,
  single,
}: {
  visible: boolean;
  onClose: () => void;
  envelopeId: string;
  senderName: string;
  nameOf: (userId: string) => string;
  own: boolean;
  single: boolean;
}) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const locale = useUiLocale();
  const queryClient = useQueryClient();
  const view = useQuery({
    queryKey: envelopeKey(envelopeId),
    queryFn: () => api.call(routes.money.envelope, { params: { id: envelopeId } }),
    enabled: visible,
  });
  const opening = useMutation({
    mutationFn: () => api.call(routes.money.openEnvelope, { params: { id: envelopeId } }),
    onSuccess: (result) => {
      queryClient.setQueryData(envelopeKey(envelopeId), result);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all() });
    },
    onError: () => void view.refetch(),
  });
  const data: EnvelopeView | undefined = view.data;
  const mayOpen =
    data !== undefined &&
    data.mine === null &&
    !(single && own) &&
    data.opened.length < data.count &&
    data.refunded === 0;
  return (
    <Sheet
      visible={visible}
      title={t('money.sender', { name: senderName })}
      onClose={onClose}
      className="tt-wallet-sheet"
    >
      {!data ? (
        <PageSpinner />
      ) : (
        <div className="tt-form">
          <p className="tt-envelope-greeting" dir="auto">
            {data.greeting || t('money.defaultGreeting')}
          </p>
          {data.mine !== null ? (
            <p className="tt-envelope-mine" role="status">
              {t('money.youGot', { amount: formatMoney(data.mine, 'PI', locale) })}
            </p>
          ) : null}
          {opening.error ? (
            <p className="tt-alert" role="alert">
              {text(errorMessage(opening.error))}
            </p>
          ) : null}
          {mayOpen ? (
            <Button block busy={opening.isPending} onClick={() => opening.mutate()}>
              {t('money.open')}
            </Button>
          ) : null}
          <p className="tt-hint">
            {t('money.opened', { opened: data.opened.length, count: data.count })}
            {data.refunded > 0
              ? ` · ${t('money.refunded', { amount: formatMoney(data.refunded, 'PI', locale) })}`
              : ''}
          </p>
          <ul className="tt-list" aria-label={t('money.details')}>
            {data.opened.map((share) => (
              <li key={share.userId} className="tt-record">
                <span>{nameOf(share.userId)}</span>
                <span className="tt-record-amount">
                  {formatMoney(share.amount, 'PI', locale)} Pi
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Sheet>
  );
}

type SendKind = 'transfer' | 'envelope';

/**
 * Sends Pi into the chat: a transfer (one-to-one chats) or a red envelope, then the
 * payment password on the pad. The message comes back through the chat like any other.
 */
export function MoneySheet({
  kind,
  conversationId,
  group,
  onClose,
}: {
  kind: SendKind | null;
  conversationId: string;
  group: boolean;
  onClose: () => void;
}) {
  const { t } = usePageTexts();
  const text = useMessageText();
  const wallet = useWallet();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [count, setCount] = useState(group ? '' : '1');
  const [split, setSplit] = useState<'random' | 'equal'>('random');
  const [note, setNote] = useState('');
  const [step, setStep] = useState<'form' | 'password'>('form');
  const [passcode, setPasscode] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [clientMsgId] = useState(() => `money-${crypto.randomUUID()}`);
  const close = () => {
    setStep('form');
    setPasscode('');
    setError(null);
    onClose();
  };
  const send = useMutation({
    mutationFn: (password: string) =>
      kind === 'transfer'
        ? api.call(routes.money.transfer, {
            body: { conversationId, clientMsgId, amount: amount.trim(), note, password },
          })
        : api.call(routes.money.sendEnvelope, {
            body: {
              conversationId,
              clientMsgId,
              total: amount.trim(),
              count: Number(count),
              split,
              greeting: note,
              password,
            },
          }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: walletKeys.all() });
      setAmount('');
      setNote('');
      close();
    },
    onError: (failure) => {
      setPasscode('');
      // Given up at the step-up: the password is typed again when they are ready.
      if (isHandledError(failure)) return;
      if (!(failure instanceof ApiError && failure.code === 'PAYMENT_PASSWORD_INCORRECT')) {
        setStep('form');
      }
      setError(errorMessage(failure, 'modify'));
    },
  });
  const ready = wallet.data?.exists && wallet.data.hasPassword;
  const title = t(kind === 'transfer' ? 'money.transfer' : 'money.envelope');
  return (
    <Sheet visible={kind !== null} title={title} onClose={close} className="tt-wallet-sheet">
      {wallet.data && !ready ? (
        <div className="tt-form">
          <p className="tt-hint">{t('money.noWallet')}</p>
          <Link className="tt-button tt-button-primary tt-button-block" to={paths.wallet}>
            {t('money.toWallet')}
          </Link>
        </div>
      ) : step === 'form' ? (
        <form
          className="tt-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const units = typedUnits(amount, 'PI');
            if (units === null || units <= 0) {
              setError(ruleMessage('amount'));
              return;
            }
            const shares = Number(count);
            if (
              kind === 'envelope' &&
              (!Number.isInteger(shares) ||
                shares < 1 ||
                shares > ENVELOPE_SHARES_MAX ||
                shares > units)
            ) {
              setError(ruleMessage('envelopeCount'));
              return;
            }
            setAmount(fromUnits(units, 'PI'));
            setError(null);
            setStep('password');
          }}
        >
          <TextField
            label={t(kind === 'transfer' ? 'wallet.amount' : 'money.total')}
            value={amount}
            onChange={setAmount}
            inputMode="decimal"
            autoComplete="off"
            error={text(error)}
          />
          {kind === 'envelope' && group ? (
            <>
              <TextField
                label={t('money.count')}
                value={count}
                onChange={setCount}
                inputMode="numeric"
                autoComplete="off"
              />
              <div className="tt-filter-tabs" role="group" aria-label={t('money.envelope')}>
                {(['random', 'equal'] as const).map((s) => (
                  <Button
                    key={s}
                    small
                    variant={s === split ? 'primary' : 'secondary'}
                    aria-pressed={s === split}
                    onClick={() => setSplit(s)}
                  >
                    {t(s === 'random' ? 'money.splitRandom' : 'money.splitEqual')}
                  </Button>
                ))}
              </div>
            </>
          ) : null}
          <TextField
            label={t(kind === 'transfer' ? 'money.note' : 'money.greeting')}
            value={note}
            onChange={setNote}
            maxLength={50}
            autoComplete="off"
          />
          <Button type="submit" block>
            {t('common.next')}
          </Button>
        </form>
      ) : (
        <PasscodePad
          prompt={t('wallet.enterToPay')}
          value={passcode}
          onChange={setPasscode}
          onComplete={(password) => send.mutate(password)}
          error={text(error)}
          disabled={send.isPending}
        />
      )}
    </Sheet>
  );
}
