import { securityActionSchema } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { security_en_US } from '../../i18n/security-en_US';
import { security_zh_CN } from '../../i18n/security-zh_CN';
import { security_zh_TW } from '../../i18n/security-zh_TW';
import { activityActionKey, activityDetail, deviceParts } from './activity-text';

describe('activityActionKey', () => {
  it('has a text for every action and channel in every catalog', () => {
    for (const action of securityActionSchema.options) {
      for (const channel of ['email', 'phone', null] as const) {
        const key = activityActionKey({ action, channel });
        const [, , name] = key.split('.');
        for (const catalog of [security_en_US, security_zh_CN, security_zh_TW]) {
          const texts: Record<string, string> = catalog.activity.action;
          expect(texts[name!], `${action} ${channel}`).toBeTruthy();
        }
      }
    }
  });

  it('names an address change by its channel', () => {
    expect(activityActionKey({ action: 'addressReplaced', channel: 'email' })).toBe(
      'activity.action.emailReplaced',
    );
    expect(activityActionKey({ action: 'addressRestored', channel: 'phone' })).toBe(
      'activity.action.phoneRestored',
    );
    expect(activityActionKey({ action: 'passwordChanged', channel: null })).toBe(
      'activity.action.passwordChanged',
    );
  });
});

describe('activityDetail', () => {
  const deviceName = (userAgent: string) => `device of ${userAgent}`;

  it('shows the address, amount or username, and names an approved device', () => {
    expect(activityDetail({ action: 'addressReplaced', detail: 'a***@b.co' }, deviceName)).toBe(
      'a***@b.co',
    );
    expect(activityDetail({ action: 'withdrawal', detail: '2 Pi' }, deviceName)).toBe('2 Pi');
    expect(activityDetail({ action: 'deviceApproved', detail: 'Mozilla/5.0' }, deviceName)).toBe(
      'device of Mozilla/5.0',
    );
  });

  it('leaves out a sign-in’s way in and empty details', () => {
    expect(activityDetail({ action: 'signIn', detail: 'device' }, deviceName)).toBeNull();
    expect(activityDetail({ action: 'withdrawal', detail: null }, deviceName)).toBeNull();
    expect(activityDetail({ action: 'piBound', detail: '' }, deviceName)).toBeNull();
  });
});

describe('deviceParts', () => {
  it('reads the browser and system, or nothing', () => {
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
    expect(deviceParts(chrome)).toEqual({ browser: 'Chrome', os: 'Windows' });
    expect(deviceParts(null)).toBeNull();
    expect(deviceParts('curl/8.0')).toBeNull();
  });
});
