import { routes } from '@teltlk/client';
import type { DeviceLoginCreated } from '@teltlk/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { appLink, paths, socketUrl } from '../../app/paths';
import { Button } from '../../ui/button';
import { Page } from '../../ui/page';
import { qrImage } from '../../ui/qr';
import { PageSpinner } from '../../ui/spinner';
import { useCountdown } from '../../ui/use-countdown';
import { useSecurityTexts } from '../../i18n/security';
import { useApplyAuth } from './use-apply-auth';
import { formatLoginCode, waitOnTicket } from './device-ticket-socket';
import './devices.css';

/** New codes shown one after another without anyone looking; then the page asks first. */
const AUTO_REFRESHES = 10;

type View =
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'showing'; ticket: DeviceLoginCreated; endsAt: number }
  | { state: 'refused' }
  | { state: 'idle' };

/** The link a phone opens from the QR code: the approve page with the ticket. */
export function ticketLink(id: string, origin = globalThis.location.origin): string {
  return appLink(paths.mobileDevice, { ticket: id }, origin);
}

/**
 * `/pages/login/PCdevice`: a signed-out browser shows a QR code of a one-time ticket and
 * its short code, valid 3 minutes and renewed when it runs out. A signed-in phone approves
 * it (mobiledevice, or /verification with the code) and this browser is signed in at once
 * over its socket, with a session of its own.
 */
export function PcDevicePage() {
  const { t } = useTranslation();
  const { t: ts } = useSecurityTexts();
  const navigate = useNavigate();
  const applyAuth = useApplyAuth();
  const [view, setView] = useState<View>({ state: 'loading' });
  const refreshes = useRef(0);

  const load = useCallback(async () => {
    setView({ state: 'loading' });
    try {
      const ticket = await api.call(routes.deviceLogins.create);
      // Counted on this device's clock from the server's answer, whatever the clocks say.
      setView({ state: 'showing', ticket, endsAt: Date.now() + (ticket.expiresAt - ticket.now) });
    } catch {
      setView({ state: 'failed' });
    }
  }, []);

  const renew = useCallback(() => {
    refreshes.current += 1;
    if (refreshes.current > AUTO_REFRESHES) setView({ state: 'idle' });
    else void load();
  }, [load]);

  useEffect(() => {
    void load();
  }, [load]);

  const ticket = view.state === 'showing' ? view.ticket : null;
  useEffect(() => {
    if (!ticket) return;
    const wait = waitOnTicket(socketUrl(window.location), ticket, (outcome) => {
      if (outcome.state === 'approved') {
        void applyAuth(outcome.auth).then(() => navigate(paths.root, { replace: true }));
      } else if (outcome.state === 'refused') setView({ state: 'refused' });
      else renew();
    });
    return () => wait.stop();
  }, [ticket, applyAuth, navigate, renew]);

  const endsAt = view.state === 'showing' ? view.endsAt : null;
  const left = useCountdown(endsAt);
  // The server says when it ran out; should its word be lost, the clock renews it too.
  useEffect(() => {
    if (endsAt === null || left > 0) return;
    const late = window.setTimeout(renew, 3_000);
    return () => window.clearTimeout(late);
  }, [endsAt, left, renew]);

  const fresh = () => {
    refreshes.current = 0;
    void load();
  };

  return (
    <Page title={ts('device.pcTitle')}>
      <section className="tt-device-login" aria-live="polite">
        {view.state === 'loading' ? <PageSpinner /> : null}
        {view.state === 'failed' ? (
          <div className="tt-empty">
            <p role="alert">{ts('device.fetchFailed')}</p>
            <Button variant="secondary" onClick={fresh}>
              {t('common.retry')}
            </Button>
          </div>
        ) : null}
        {view.state === 'refused' || view.state === 'idle' ? (
          <div className="tt-empty">
            <p role={view.state === 'refused' ? 'alert' : undefined}>
              {view.state === 'refused' ? ts('device.refused') : ts('device.stopped')}
            </p>
            <Button onClick={fresh}>{ts('device.newCode')}</Button>
          </div>
        ) : null}
        {view.state === 'showing' ? (
          <>
            <p className="tt-hint">{ts('device.pcIntro')}</p>
            <img
              className="tt-device-qr"
              src={qrImage(ticketLink(view.ticket.id))}
              alt={ts('device.qrAlt')}
              width={208}
              height={208}
              data-testid="device-login-qr"
            />
            <p className="tt-device-number">
              <span>{ts('device.pcMatch')}</span>
              <strong data-testid="device-login-match">{view.ticket.match}</strong>
            </p>
            <p className="tt-device-validity">
              {left > 0
                ? ts('device.validFor', {
                    time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`,
                  })
                : ts('device.renewing')}
            </p>
            <p className="tt-hint">{ts('device.codeIntro')}</p>
            <p className="tt-device-code" data-testid="device-login-code">
              {formatLoginCode(view.ticket.code)}
            </p>
            <p className="tt-device-waiting">{ts('device.waiting')}</p>
          </>
        ) : null}
        <Link className="tt-link-button" to={paths.login} replace>
          {ts('device.passwordLogin')}
        </Link>
      </section>
    </Page>
  );
}
