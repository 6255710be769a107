import type { LocalMessage } from '@teltlk/im-sdk';
import type { MoneyContent } from '@teltlk/protocol';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../ui/money';
import { useUiLocale } from '../../ui/pickers';

// The envelope's sheet loads when one is opened: the chat itself stays light.
const EnvelopeSheet = lazy(() =>
  import('./money-sheets').then((module) => ({ default: module.EnvelopeSheet })),
);

/** A transfer or a red envelope in the chat: amount and state; an envelope opens in a sheet. */
export function MoneyBubble({
  message,
  content,
  own,
  nameOf,
}: {
  message: LocalMessage;
  content: MoneyContent;
  own: boolean;
  nameOf: (userId: string) => string;
}) {
  const { t } = useTranslation();
  const locale = useUiLocale();
  const [open, setOpen] = useState(false);
  if (content.kind === 'transfer') {
    return (
      <div className="tt-money tt-money-transfer" data-testid="transfer-bubble">
        <strong>{formatMoney(content.amount, 'PI', locale)} Pi</strong>
        {content.note ? <span dir="auto">{content.note}</span> : null}
        <small>
          {t('money.transfer')} · {t(own ? 'money.transferSent' : 'money.transferReceived')}
        </small>
      </div>
    );
  }
  return (
    <>
      <button
        type="button"
        className="tt-money tt-money-envelope"
        data-testid="envelope-bubble"
        onClick={() => setOpen(true)}
      >
        <span dir="auto">{content.greeting || t('money.defaultGreeting')}</span>
        <small>{t('money.envelope')}</small>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <EnvelopeSheet
            visible={open}
            onClose={() => setOpen(false)}
            envelopeId={content.envelopeId}
            senderName={nameOf(message.senderId)}
            nameOf={nameOf}
            own={own}
            single={message.conversationId.startsWith('si_')}
          />
        </Suspense>
      ) : null}
    </>
  );
}
