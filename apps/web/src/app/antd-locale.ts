import type { UiLanguage } from '@teltlk/protocol';
import enUS from 'antd-mobile/es/locales/en-US';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import zhTW from 'antd-mobile/es/locales/zh-TW';

export type AntdLocale = typeof enUS;

export const antdLocales: Record<UiLanguage, AntdLocale> = {
  en_US: enUS,
  zh_CN: zhCN,
  zh_TW: zhTW,
};
