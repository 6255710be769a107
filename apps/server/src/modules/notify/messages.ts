import { FALLBACK_UI_LANGUAGE, UI_LANGUAGES, type UiLanguage } from '@teltlk/protocol';

/** Texts of verification messages, in the language the request asked for. */

interface CodeTexts {
  subject: string;
  email: (code: string, minutes: number) => string;
  sms: (code: string, minutes: number) => string;
}

const TEXTS: Record<UiLanguage, CodeTexts> = {
  en_US: {
    subject: 'Your Teltlk verification code',
    email: (code, minutes) =>
      `Your Teltlk verification code is ${code}. It is valid for ${minutes} minutes.\n\n` +
      'If you did not ask for this code, you can ignore this message.',
    sms: (code, minutes) =>
      `[Teltlk] Your verification code is ${code}, valid for ${minutes} minutes.`,
  },
  zh_CN: {
    subject: 'Teltlk 验证码',
    email: (code, minutes) =>
      `您的 Teltlk 验证码是 ${code}，${minutes} 分钟内有效。\n\n如非本人操作，请忽略此邮件。`,
    sms: (code, minutes) => `【Teltlk】您的验证码是 ${code}，${minutes} 分钟内有效。`,
  },
  zh_TW: {
    subject: 'Teltlk 驗證碼',
    email: (code, minutes) =>
      `您的 Teltlk 驗證碼是 ${code}，${minutes} 分鐘內有效。\n\n如非本人操作，請忽略此郵件。`,
    sms: (code, minutes) => `【Teltlk】您的驗證碼是 ${code}，${minutes} 分鐘內有效。`,
  },
};

/**
 * Reads an Accept-Language header: the app sends en_US/zh_CN/zh_TW, browsers send
 * BCP 47 tags with weights (zh-TW, zh-Hant-HK;q=0.8, en). First match wins.
 */
export function pickLanguage(header: string | undefined): UiLanguage {
  if (!header) return FALLBACK_UI_LANGUAGE;
  const tags = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return {
        tag: tag.trim().replace(/_/g, '-').toLowerCase(),
        q: q === undefined ? 1 : Number(q),
      };
    })
    .filter(({ tag, q }) => tag && q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    const exact = UI_LANGUAGES.find((language) => language.replace('_', '-').toLowerCase() === tag);
    if (exact) return exact;
    if (tag === 'zh' || tag.startsWith('zh-')) {
      return /^zh-(hant|tw|hk|mo)/.test(tag) ? 'zh_TW' : 'zh_CN';
    }
    if (tag === 'en' || tag.startsWith('en-')) return 'en_US';
  }
  return FALLBACK_UI_LANGUAGE;
}

export interface CodeMessageInput {
  code: string;
  ttlSeconds: number;
  language: UiLanguage;
}

export function codeEmail({ code, ttlSeconds, language }: CodeMessageInput): {
  subject: string;
  text: string;
} {
  const texts = TEXTS[language];
  return { subject: texts.subject, text: texts.email(code, Math.ceil(ttlSeconds / 60)) };
}

export function codeSms({ code, ttlSeconds, language }: CodeMessageInput): string {
  return TEXTS[language].sms(code, Math.ceil(ttlSeconds / 60));
}
