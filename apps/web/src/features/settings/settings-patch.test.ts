import type { Settings } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { applyPatch, revertPatch } from './settings-patch';

const settings: Settings = {
  uiLanguage: 'zh_CN',
  motherTongueFirst: true,
  notifications: true,
  vibration: true,
  alertSound: true,
  notificationPreviews: false,
};

describe('optimistic settings', () => {
  it('applies a change at once', () => {
    expect(applyPatch(settings, { vibration: false })).toEqual({ ...settings, vibration: false });
  });

  it('rolls back only the keys of the failed change', () => {
    const afterBoth = applyPatch(applyPatch(settings, { vibration: false }), { alertSound: false });
    expect(revertPatch(afterBoth, settings, { vibration: false })).toEqual({
      ...settings,
      alertSound: false,
    });
  });
});
