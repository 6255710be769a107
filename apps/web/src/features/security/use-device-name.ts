import { useCallback } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useSessions } from '../../api/queries';
import { useSecurityTexts } from '../../i18n/security';
import { deviceParts } from './activity-text';

/** Names a device by its user agent, "Chrome · Windows", as security entries and notices do. */
export function useDeviceName(): (userAgent: string | null) => string {
  const { t } = usePageTexts();
  const { t: ts } = useSecurityTexts();
  return useCallback(
    (userAgent) => {
      const parts = deviceParts(userAgent);
      if (!parts) return ts('activity.unknownDevice');
      return ts('activity.deviceShort', {
        browser: parts.browser ?? t('security.unknownBrowser'),
        os: parts.os ?? t('security.unknownOs'),
      });
    },
    [t, ts],
  );
}

/** This session's id, as the session list tells it; null until it has loaded. */
export function useCurrentSessionId(): string | null {
  return useSessions().data?.sessions.find((session) => session.current)?.id ?? null;
}
