import { QueryClientProvider } from '@tanstack/react-query';
import ConfigProvider, { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import { useEffect, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from '../i18n/index';
import { resolveUiLanguage } from '../i18n/language';
import { antdLocales } from './antd-locale';
import { queryClient } from './query-client';

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
