import { describe, expect, it } from 'vitest';
import { codeEmail, codeSms, pickLanguage } from './messages.js';

describe('pickLanguage', () => {
  it.each([
    [undefined, 'en_US'],
    ['', 'en_US'],
    ['en_US', 'en_US'],
    ['zh_CN', 'zh_CN'],
    ['zh_TW', 'zh_TW'],
    ['zh-CN,zh;q=0.9', 'zh_CN'],
    ['zh-Hant-HK', 'zh_TW'],
    ['zh-HK', 'zh_TW'],
    ['zh', 'zh_CN'],
    ['en-GB', 'en_US'],
    ['fr-FR,zh-TW;q=0.8,en;q=0.5', 'zh_TW'],
    ['en;q=0.1,zh-CN;q=0.9', 'zh_CN'],
    ['de, fr', 'en_US'],
    ['zh-CN;q=0', 'en_US'],
  ])('%s → %s', (header, expected) => {
    expect(pickLanguage(header)).toBe(expected);
  });
});

describe('code texts', () => {
  it('carry the code and its validity in minutes, in the chosen language', () => {
    const english = codeEmail({ code: '042917', ttlSeconds: 180, language: 'en_US' });
    expect(english.subject).toMatch(/verification code/i);
    expect(english.text).toContain('042917');
    expect(english.text).toContain('3 minutes');

    const simplified = codeEmail({ code: '042917', ttlSeconds: 600, language: 'zh_CN' });
    expect(simplified.subject).toContain('验证码');
    expect(simplified.text).toContain('10 分钟');

    const traditional = codeSms({ code: '042917', ttlSeconds: 600, language: 'zh_TW' });
    expect(traditional).toContain('驗證碼');
    expect(traditional).toContain('042917');
  });
});
