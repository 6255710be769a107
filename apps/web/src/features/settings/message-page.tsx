import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { Settings } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { askPermission, pushState, syncPush, type PushState } from '../../api/push';
import { useSettings } from '../../api/queries';
import { Button } from '../../ui/button';
import { toastFailure } from '../../ui/failure-toast';
import { Page } from '../../ui/page';
import { Section } from '../../ui/section';
import { QueryError } from '../../ui/query-error';
import { PageSpinner } from '../../ui/spinner';
import { SwitchRow } from '../../ui/switch-row';
import { showToast } from '../../ui/toast';
import { useUpdateSettings } from './use-update-settings';

type Switch = 'notifications' | 'notificationPreviews' | 'vibration' | 'alertSound';

const PUSH_STATE_KEY = ['device', 'push-state'] as const;

/** This device: whether the browser may show notifications, and a test one. */
function ThisDevice({ settings }: { settings: Settings }) {
  const { t } = usePageTexts();
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: PUSH_STATE_KEY, queryFn: pushState });
  const refresh = (next: PushState) => queryClient.setQueryData(PUSH_STATE_KEY, next);
  const allow = useMutation({
    mutationFn: async () => {
      const permission = await askPermission();
      if (permission !== 'granted') return pushState();
      return syncPush(settings.notifications);
    },
    onSuccess: refresh,
  });
  const test = useMutation({
    mutationFn: async () => {
      // A device allowed but not subscribed yet (first visit after allowing) subscribes now.
      if ((await pushState()) === 'off') refresh(await syncPush(true));
      await api.call(routes.push.test);
    },
    onSuccess: () => showToast(t('messageSettings.testSent'), { icon: 'success' }),
    onError: (failure) => toastFailure(failure),
  });
  const current = state.data;
  const described = current ? t(`messageSettings.state.${current}`) : t('common.loading');
  return (
    <Section title={t('messageSettings.device')}>
      <div className="tt-content tt-stack">
        <p role="status" data-testid="push-state">
          {described}
        </p>
        {current === 'default' ? (
          <Button block busy={allow.isPending} onClick={() => allow.mutate()}>
            {t('messageSettings.allow')}
          </Button>
        ) : null}
        {current === 'on' || current === 'off' ? (
          <Button
            block
            variant="secondary"
            busy={test.isPending}
            disabled={!settings.notifications}
            onClick={() => test.mutate()}
          >
            {t('messageSettings.test')}
          </Button>
        ) : null}
      </div>
    </Section>
  );
}

/**
 * `/pages/user/message`: message notifications (with or without the sender and text),
 * vibration and the alert sound; this device's permission, and a test notification.
 */
export function MessagePage() {
  const { t } = usePageTexts();
  const settings = useSettings();
  const update = useUpdateSettings();
  const queryClient = useQueryClient();
  const change = (key: Switch, value: boolean) => {
    update.mutate({ [key]: value });
    if (key === 'notifications') {
      // This device follows at once: subscribed when on, dropped when off.
      void syncPush(value)
        .then((next) => queryClient.setQueryData(PUSH_STATE_KEY, next))
        .catch((failure: unknown) => toastFailure(failure));
    }
  };
  const row = (key: Switch, hint?: string, disabled = false) => (
    <li>
      <SwitchRow
        label={t(`messageSettings.${key}`)}
        hint={hint}
        checked={settings.data?.[key] ?? false}
        disabled={disabled}
        onChange={(value) => change(key, value)}
      />
    </li>
  );
  return (
    <Page title={t('messageSettings.title')} flush>
      {settings.data ? (
        <>
          <Section title={t('messageSettings.alerts')}>
            <ul className="tt-list">
              {row('notifications', t('messageSettings.notificationsHint'))}
              {row(
                'notificationPreviews',
                t('messageSettings.previewsHint'),
                !settings.data.notifications,
              )}
              {row('vibration')}
              {row('alertSound')}
            </ul>
          </Section>
          <ThisDevice settings={settings.data} />
        </>
      ) : settings.error ? (
        <QueryError error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <PageSpinner />
      )}
    </Page>
  );
}
