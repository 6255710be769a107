import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import ConfigProvider, { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from '../i18n/index';
import { resolveUiLanguage } from '../i18n/language';
import { antdLocales } from './antd-locale';
import { useAuthStore } from './auth-store';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx answer will not change on retry; network trouble might.
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
    mutations: { retry: false },
  },
});

// Whoever signs in or out, nothing cached for the previous session may show.
useAuthStore.subscribe((state, previous) => {
  if (state.token !== previous.token) queryClient.clear();
});

/** antd-mobile's texts follow the interface language, including imperative toasts and dialogs. */
function AntdLocaleProvider({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const locale = antdLocales[resolveUiLanguage(instance.language)];
  useEffect(() => {
    setDefaultConfig({ locale });
  }, [locale]);
  return <ConfigProvider locale={locale}>{children}</ConfigProvider>;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <AntdLocaleProvider>{children}</AntdLocaleProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
