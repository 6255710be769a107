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

export interface AddressNoticeInput {
  channel: 'email' | 'phone';
  /** The new address, partly hidden. */
  replacement: string;
  /** Where the old address's owner undoes the change. */
  link: string;
  days: number;
  language: UiLanguage;
}

const ADDRESS_TEXTS: Record<
  UiLanguage,
  {
    subject: (channel: AddressNoticeInput['channel']) => string;
    body: (input: AddressNoticeInput) => string;
    sms: (input: AddressNoticeInput) => string;
  }
> = {
  en_US: {
    subject: (channel) =>
      channel === 'email'
        ? 'Your Teltlk email was changed'
        : 'Your Teltlk phone number was changed',
    body: ({ channel, replacement, link, days }) =>
      `The ${channel === 'email' ? 'email address' : 'phone number'} of your Teltlk account ` +
      `was changed to ${replacement}.\n\nIf this was not you, put it back within ${days} days ` +
      `with this link; every device will be signed out:\n${link}\n\n` +
      'If it was you, you can ignore this message.',
    sms: ({ replacement, link }) =>
      `[Teltlk] Your account's phone number was changed to ${replacement}. Not you? Undo: ${link}`,
  },
  zh_CN: {
    subject: (channel) => (channel === 'email' ? 'Teltlk 邮箱已更换' : 'Teltlk 手机号已更换'),
    body: ({ channel, replacement, link, days }) =>
      `您的 Teltlk 账号的${channel === 'email' ? '邮箱' : '手机号'}已更换为 ${replacement}。\n\n` +
      `如非本人操作，请在 ${days} 天内通过以下链接恢复，所有设备将被退出登录：\n${link}\n\n` +
      '如是本人操作，请忽略此消息。',
    sms: ({ replacement, link }) =>
      `【Teltlk】您的账号手机号已更换为 ${replacement}。如非本人操作，请恢复：${link}`,
  },
  zh_TW: {
    subject: (channel) => (channel === 'email' ? 'Teltlk 信箱已更換' : 'Teltlk 手機號碼已更換'),
    body: ({ channel, replacement, link, days }) =>
      `您的 Teltlk 帳號的${channel === 'email' ? '信箱' : '手機號碼'}已更換為 ${replacement}。\n\n` +
      `如非本人操作，請在 ${days} 天內透過以下連結復原，所有裝置將被登出：\n${link}\n\n` +
      '如是本人操作，請忽略此訊息。',
    sms: ({ replacement, link }) =>
      `【Teltlk】您的帳號手機號碼已更換為 ${replacement}。如非本人操作，請復原：${link}`,
  },
};

/** The notice an old address gets when it is replaced, with the link that undoes it. */
export function addressReplacedNotice(input: AddressNoticeInput): {
  subject: string;
  text: string;
  sms: string;
} {
  const texts = ADDRESS_TEXTS[input.language];
  return { subject: texts.subject(input.channel), text: texts.body(input), sms: texts.sms(input) };
}
