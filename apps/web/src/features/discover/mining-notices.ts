import { useQueryClient } from '@tanstack/react-query';
import type { UserEvent } from '@teltlk/protocol';
import { useTranslation } from 'react-i18next';
import { growthKeys } from '../../api/use-growth';
import { useUserEvents } from '../../app/user-events';
import { intlLocale, resolveUiLanguage } from '../../i18n/language';
import { showToast } from '../../ui/toast';
import { formatPoints } from './points';

/**
 * Mining notices wherever the person is in the app: a session ended (its points settled),
 * or their inviter reminds them to check in. Screens of points and team read again.
 */
export function useMiningNotices(): void {
  const { t, i18n } = useTranslation();
  // Not useUiLocale: its module brings the country and language pickers along, and this
  // hook is part of every signed-in page's first load.
  const locale = intlLocale(resolveUiLanguage(i18n.language));
  const queryClient = useQueryClient();
  useUserEvents((event: UserEvent) => {
    const { data } = event;
    if (data.type !== 'mining') return;
    void queryClient.invalidateQueries({ queryKey: growthKeys.all() });
    // Events caught up on after a while away are not announced one by one.
    if (Date.now() - event.at > 10 * 60_000) return;
    showToast(
      data.reason === 'ended'
        ? t('discover.sessionEnded', { points: formatPoints(data.points, locale) })
        : t('discover.nudged', { name: data.by?.nickname ?? '' }),
    );
  });
}
