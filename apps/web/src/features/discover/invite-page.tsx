import { usePageTexts } from '../../i18n/pages';
import { usePiClient } from '../../api/pi';
import { useMe } from '../../api/queries';
import { appLink, paths } from '../../app/paths';
import { Button } from '../../ui/button';
import { copyText } from '../../ui/clipboard';
import { Page } from '../../ui/page';
import { qrImage } from '../../ui/qr';
import { PageSpinner } from '../../ui/spinner';
import { showToast } from '../../ui/toast';
import './discover.css';

/** The link that opens registration with my invitation code filled in. */
export function inviteLink(code: string, origin = globalThis.location.origin): string {
  return appLink(paths.register, { invite: code }, origin);
}

/** The link that opens my profile, to add me as a friend. */
export function cardLink(userId: string, origin = globalThis.location.origin): string {
  return appLink(paths.seeMeans, { userId }, origin);
}

/** `/pages/user/twoCode`: my invitation code, link and QR code, and my card's QR code. */
export function InvitePage() {
  const { t } = usePageTexts();
  const me = useMe();
  const { client } = usePiClient();
  if (!me.data) {
    return (
      <Page title={t('invite.title')}>
        {me.error ? (
          <div className="tt-empty">
            <p role="alert">{t('invite.failed')}</p>
            <Button variant="secondary" onClick={() => void me.refetch()}>
              {t('common.retry')}
            </Button>
          </div>
        ) : (
          <PageSpinner />
        )}
      </Page>
    );
  }
  const { inviteCode, id } = me.data;
  const link = inviteLink(inviteCode);
  const message = `${t('invite.shareText', { code: inviteCode })} ${link}`;
  const copy = async (text: string) => {
    showToast((await copyText(text)) ? t('invite.copied') : t('invite.failed'));
  };
  // The Pi share dialog in the Pi Browser, the system's share sheet elsewhere, else a copy.
  const share = async () => {
    try {
      if (client?.inPiBrowser) return await client.openShareDialog(t('invite.shareTitle'), message);
      if (typeof navigator.share === 'function') {
        return await navigator.share({ title: t('invite.shareTitle'), text: message, url: link });
      }
    } catch (error) {
      // Closing the share sheet is no failure.
      if (error instanceof DOMException && error.name === 'AbortError') return;
    }
    await copy(message);
  };
  return (
    <Page title={t('invite.title')}>
      <section className="tt-invite" aria-labelledby="invite-code">
        <h2 id="invite-code" className="tt-invite-label">
          {t('invite.code')}
        </h2>
        <p className="tt-invite-code" data-testid="invite-code">
          {inviteCode}
        </p>
        <img
          className="tt-invite-qr"
          src={qrImage(link)}
          alt={t('invite.qrAlt')}
          width={192}
          height={192}
        />
        <p className="tt-hint">{t('invite.hint')}</p>
        <p className="tt-invite-link" data-testid="invite-link">
          {link}
        </p>
        <div className="tt-invite-actions">
          <Button block onClick={() => void share()}>
            {t('invite.share')}
          </Button>
          <Button block variant="secondary" onClick={() => void copy(link)}>
            {t('invite.copyLink')}
          </Button>
          <Button block variant="secondary" onClick={() => void copy(inviteCode)}>
            {t('invite.copyCode')}
          </Button>
        </div>
      </section>
      <section className="tt-invite" aria-labelledby="invite-card">
        <h2 id="invite-card" className="tt-invite-label">
          {t('invite.cardTitle')}
        </h2>
        <img
          className="tt-invite-qr"
          src={qrImage(cardLink(id))}
          alt={t('invite.cardAlt')}
          width={160}
          height={160}
        />
        <p className="tt-hint">{t('invite.cardHint')}</p>
      </section>
    </Page>
  );
}
