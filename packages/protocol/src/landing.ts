import { z } from 'zod';
import type { UiLanguage } from './constants.js';

/** Where each language's landing pages live (prerendered at build). zh_CN, the default, is the root. */
export const LANDING_PATHS: Record<UiLanguage, string> = {
  zh_CN: '/home/',
  en_US: '/home/en/',
  zh_TW: '/home/zh-tw/',
};

/**
 * The build writes the landing pages' absolute addresses (canonical, alternates) with
 * this origin; the server puts the request's own in its place.
 */
export const LANDING_ORIGIN_PLACEHOLDER = 'https://teltlk.invalid';

/** Each interface language's tag in HTML (`lang`, `hreflang`). */
export const HTML_LANG: Record<UiLanguage, string> = {
  en_US: 'en',
  zh_CN: 'zh-CN',
  zh_TW: 'zh-TW',
};

/** Text made safe to put in HTML, in an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * Pages of the web app that the server names (hash routes, as in a notification's link):
 * the web app's route table takes them from here.
 */
export const APP_PAGES = {
  chat: '/pages/home/chat',
  find: '/pages/find/find',
  securityActivity: '/pages/user/securityActivity',
} as const;

/** The web app's page of one chat. */
export function chatPage(conversationId: string): string {
  return `${APP_PAGES.chat}?conversationId=${encodeURIComponent(conversationId)}`;
}

/** The kinds of partnership the cooperation form offers. */
export const COOPERATION_KINDS = ['business', 'community', 'media', 'technology', 'other'] as const;

/** The landing site's partnership form (a plain HTML form: every field arrives as text). */
export const cooperationForm = z.object({
  lang: z.enum(['zh_CN', 'en_US', 'zh_TW']).catch('zh_CN'),
  name: z.string().trim().min(1).max(100),
  organisation: z.string().trim().max(200).default(''),
  email: z.string().trim().max(254).pipe(z.email()),
  kind: z.enum(COOPERATION_KINDS),
  message: z.string().trim().min(1).max(4000),
});
export type CooperationForm = z.infer<typeof cooperationForm>;

/** The apps the landing site links to (addresses from the server's config). */
export const DOWNLOAD_PLATFORMS = ['android', 'ios'] as const;
export type DownloadPlatform = (typeof DOWNLOAD_PLATFORMS)[number];

/** What the server itself says on the landing site, where no prerendered page fits. */
export const LANDING_NOTICES: Record<
  UiLanguage,
  { downloadFailed: string; invalidForm: string; back: string }
> = {
  en_US: {
    downloadFailed: 'Download link acquisition failed',
    invalidForm: 'Please fill in your name, a valid email and your proposal, then send again.',
    back: 'Back',
  },
  zh_CN: {
    downloadFailed: '下载链接获取失败',
    invalidForm: '请填写姓名、有效的邮箱和合作方案后再提交。',
    back: '返回',
  },
  zh_TW: {
    downloadFailed: '下載連結取得失敗',
    invalidForm: '請填寫姓名、有效的電子郵件和合作方案後再送出。',
    back: '返回',
  },
};
