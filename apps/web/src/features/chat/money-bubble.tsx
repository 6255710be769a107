import type { LocalMessage } from '@teltlk/im-sdk';
import type { MoneyContent } from '@teltlk/protocol';
import { lazy, Suspense, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link } from 'react-router';
import { paths, withQuery } from '../../app/paths';
import { formatMoney } from '../../ui/money';
import { useUiLocale } from '../../ui/use-ui-locale';

// The envelope's sheet loads when one is opened: the chat itself stays light.
const EnvelopeSheet = lazy(() =>
  import('./money-sheets').then((module) => ({ default: module.EnvelopeSheet })),
);

/**
 * A transfer, a red envelope or an NFT in the chat: amount and state; an envelope opens
 * in a sheet, a received NFT in the wallet.
 */
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
  const { t } = usePageTexts();
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
  if (content.kind === 'nft') {
    const inner = (
      <>
        <img src={content.imageUrl} alt="" width={56} height={56} loading="lazy" />
        <span className="tt-money-nft-text">
          <strong dir="auto">{content.name}</strong>
          <span dir="auto">{content.collection}</span>
          <small>
            {t('money.nft')} · {t(own ? 'money.nftSent' : 'money.nftReceived')}
          </small>
        </span>
      </>
    );
    return own ? (
      <div className="tt-money tt-money-nft" data-testid="nft-bubble">
        {inner}
      </div>
    ) : (
      <Link
        className="tt-money tt-money-nft"
        data-testid="nft-bubble"
        to={withQuery(paths.wallet, { nft: content.itemId })}
        aria-label={`${content.name}, ${t('money.nftSeeInWallet')}`}
      >
        {inner}
      </Link>
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
