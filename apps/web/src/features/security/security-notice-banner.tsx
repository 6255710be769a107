import type { SecurityActivity } from '@teltlk/protocol';
import { CloseOutline } from 'antd-mobile-icons';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../app/paths';
import { useSecurityTexts } from '../../i18n/security';
import { activityActionKey } from './activity-text';
import { useDeviceName } from './use-device-name';
import './security.css';

/**
 * How long the notice floats over the page: long enough to read and tap, short enough not
 * to hide the page for good (the security activity keeps the entry). It waits while the
 * pointer or the focus is on it.
 */
const NOTICE_MS = 15_000;

/**
 * "Password changed on Chrome · Windows": a sensitive action done elsewhere, with a link
 * to the security activity, until dismissed or for a while.
 */
export function SecurityNoticeBanner({
  activity,
  onDismiss,
}: {
  activity: SecurityActivity;
  onDismiss: () => void;
}) {
  const { t: ts } = useSecurityTexts();
  const deviceName = useDeviceName();
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return;
    const timer = window.setTimeout(onDismiss, NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [held, onDismiss]);
  return (
    <div
      className="tt-security-notice"
      role="alert"
      aria-label={ts('activity.noticeLabel')}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <p>
        {ts('activity.notice', {
          action: ts(activityActionKey(activity)),
          device: deviceName(activity.userAgent),
        })}
      </p>
      <Link to={paths.securityActivity} onClick={onDismiss}>
        {ts('activity.view')}
      </Link>
      <button
        type="button"
        className="tt-icon-button"
        aria-label={ts('activity.dismiss')}
        onClick={onDismiss}
      >
        <CloseOutline aria-hidden />
      </button>
    </div>
  );
}
