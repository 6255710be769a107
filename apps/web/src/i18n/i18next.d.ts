import 'i18next';
import type { en_US } from './en_US';
import type { calls_en_US } from './calls-en_US';
import type { pages_en_US } from './pages-en_US';
import type { security_en_US } from './security-en_US';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // As i18n/index.ts sets it up: every namespace's keys include the main catalog's.
    fallbackNS: 'translation';
    // Keys are checked; parameters are not, since i18next would type every `{name}` as a
    // string. catalogs.test.ts checks that every language has the same placeholders.
    resources: {
      translation: typeof en_US;
      security: typeof security_en_US;
      calls: typeof calls_en_US;
      pages: typeof pages_en_US;
    };
  }
}
