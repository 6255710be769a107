import type { CallContent, CallOutcome, UiLanguage } from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { catalogText } from '../../i18n/catalogs';
import { en_US } from '../../i18n/en_US';
import { zh_CN } from '../../i18n/zh_CN';
import { zh_TW } from '../../i18n/zh_TW';
import {
  callBackLabel,
  callRecordLine,
  callRecordPreview,
  callRecordView,
  formatCallDuration,
  isMissedCall,
  type CallRecordText,
} from './call-record';

const catalogs = { en_US, zh_CN, zh_TW } satisfies Record<UiLanguage, unknown>;

/** The texts of a language as the app looks them up. */
const textsOf =
  (language: UiLanguage): CallRecordText =>
  (key, params) =>
    catalogText(catalogs[language], key, params);

const record = (patch: Partial<CallContent>): CallContent => ({
  kind: 'call',
  callId: 'call-1',
  media: 'audio',
  outcome: 'completed',
  durationSeconds: 0,
  group: false,
  ...patch,
});

/** The bubble's line for the caller and for the callee, in a language. */
function lines(language: UiLanguage, content: CallContent): [caller: string, callee: string] {
  const t = textsOf(language);
  return [
    callRecordLine(callRecordView(content, true), t),
    callRecordLine(callRecordView(content, false), t),
  ];
}

/** Every outcome of a call: its duration when it had one. */
const outcomes: [CallOutcome, number][] = [
  ['completed', 201],
  ['missed', 0],
  ['rejected', 0],
  ['cancelled', 0],
  ['busy', 0],
  ['failed', 12],
];

describe('call record durations', () => {
  it('reads m:ss below an hour and h:mm:ss from an hour on', () => {
    expect([0, 9, 59, 60, 201, 3599].map(formatCallDuration)).toEqual([
      '0:00',
      '0:09',
      '0:59',
      '1:00',
      '3:21',
      '59:59',
    ]);
    expect([3600, 3725, 36_000 + 59].map(formatCallDuration)).toEqual([
      '1:00:00',
      '1:02:05',
      '10:00:59',
    ]);
  });
});

describe('a one-to-one call record, from each side', () => {
  const expected: Record<UiLanguage, Record<CallOutcome, [string, string]>> = {
    en_US: {
      completed: ['Voice call · 3:21', 'Voice call · 3:21'],
      missed: ['No answer', 'Missed voice call'],
      rejected: ['Call declined', 'Declined'],
      cancelled: ['Cancelled', 'Cancelled by caller'],
      busy: ['Busy', 'Missed voice call'],
      failed: ['Call failed · 0:12', 'Call failed · 0:12'],
    },
    zh_CN: {
      completed: ['语音通话 · 3:21', '语音通话 · 3:21'],
      missed: ['对方未接听', '未接语音通话'],
      rejected: ['对方已拒绝', '已拒绝'],
      cancelled: ['已取消', '对方已取消'],
      busy: ['对方忙线中', '未接语音通话'],
      failed: ['通话失败 · 0:12', '通话失败 · 0:12'],
    },
    zh_TW: {
      completed: ['語音通話 · 3:21', '語音通話 · 3:21'],
      missed: ['對方未接聽', '未接語音通話'],
      rejected: ['對方已拒絕', '已拒絕'],
      cancelled: ['已取消', '對方已取消'],
      busy: ['對方忙線中', '未接語音通話'],
      failed: ['通話失敗 · 0:12', '通話失敗 · 0:12'],
    },
  };

  it.each(Object.keys(expected) as UiLanguage[])(
    'words each outcome for its reader in %s',
    (language) => {
      const shown = Object.fromEntries(
        outcomes.map(([outcome, durationSeconds]) => [
          outcome,
          lines(language, record({ outcome, durationSeconds })),
        ]),
      );
      expect(shown).toEqual(expected[language]);
    },
  );

  it('says video for a video call, and an hour-long one in h:mm:ss', () => {
    const video = (outcome: CallOutcome, durationSeconds = 0) =>
      lines('en_US', record({ media: 'video', outcome, durationSeconds }));
    expect(video('completed', 3725)).toEqual(['Video call · 1:02:05', 'Video call · 1:02:05']);
    expect(video('missed')[1]).toBe('Missed video call');
    expect(video('busy')[1]).toBe('Missed video call');
    expect(lines('zh_CN', record({ media: 'video', outcome: 'missed' }))[1]).toBe('未接视频通话');
    expect(lines('zh_TW', record({ media: 'video', outcome: 'missed' }))[1]).toBe('未接視訊通話');
  });

  it('says a call failed without a time when it never started', () => {
    expect(lines('en_US', record({ outcome: 'failed', durationSeconds: 0 }))).toEqual([
      'Call failed',
      'Call failed',
    ]);
    expect(lines('zh_TW', record({ outcome: 'failed', durationSeconds: 0 }))[0]).toBe('通話失敗');
  });

  it('counts as missed for the callee only what they never answered', () => {
    const missed = (outcome: CallOutcome, own: boolean) =>
      isMissedCall(callRecordView(record({ outcome }), own));
    expect(outcomes.filter(([outcome]) => missed(outcome, false)).map(([o]) => o)).toEqual([
      'missed',
      'busy',
    ]);
    expect(outcomes.some(([outcome]) => missed(outcome, true))).toBe(false);
  });
});

describe('a group call record, from the caller and from the others', () => {
  const group = (outcome: CallOutcome, durationSeconds = 0) =>
    record({ group: true, media: 'video', outcome, durationSeconds });

  it('words each outcome in the three languages', () => {
    const expected: Record<UiLanguage, Record<CallOutcome, [string, string]>> = {
      en_US: {
        completed: ['Group video call · 12:03', 'Group video call · 12:03'],
        missed: ['No answer', 'Missed group video call'],
        rejected: ['Call declined', 'Group video call ended'],
        cancelled: ['Cancelled', 'Missed group video call'],
        busy: ['Busy', 'Group video call ended'],
        failed: ['Call failed · 0:12', 'Call failed · 0:12'],
      },
      zh_CN: {
        completed: ['群视频通话 · 12:03', '群视频通话 · 12:03'],
        missed: ['对方未接听', '未接群视频通话'],
        rejected: ['对方已拒绝', '群视频通话已结束'],
        cancelled: ['已取消', '未接群视频通话'],
        busy: ['对方忙线中', '群视频通话已结束'],
        failed: ['通话失败 · 0:12', '通话失败 · 0:12'],
      },
      zh_TW: {
        completed: ['群組視訊通話 · 12:03', '群組視訊通話 · 12:03'],
        missed: ['對方未接聽', '未接群組視訊通話'],
        rejected: ['對方已拒絕', '群組視訊通話已結束'],
        cancelled: ['已取消', '未接群組視訊通話'],
        busy: ['對方忙線中', '群組視訊通話已結束'],
        failed: ['通話失敗 · 0:12', '通話失敗 · 0:12'],
      },
    };
    const durations: Partial<Record<CallOutcome, number>> = { completed: 723, failed: 12 };
    for (const language of Object.keys(expected) as UiLanguage[]) {
      const shown = Object.fromEntries(
        outcomes.map(([outcome]) => [
          outcome,
          lines(language, group(outcome, durations[outcome] ?? 0)),
        ]),
      );
      expect(shown, language).toEqual(expected[language]);
    }
    expect(lines('en_US', { ...group('rejected'), media: 'audio' })[1]).toBe(
      'Group voice call ended',
    );
  });
});

describe('call record previews', () => {
  const preview = (language: UiLanguage, content: CallContent, own: boolean) =>
    callRecordPreview(callRecordView(content, own), textsOf(language));

  it('shows the kind of call and its time, or what happened, in the reader’s language', () => {
    const completed = record({ durationSeconds: 201 });
    const missedVideo = record({ media: 'video', outcome: 'missed' });
    expect(preview('en_US', completed, false)).toBe('[Voice call] 3:21');
    expect(preview('en_US', missedVideo, false)).toBe('[Missed video call]');
    expect(preview('en_US', missedVideo, true)).toBe('[Video call] No answer');
    expect(preview('en_US', record({ outcome: 'rejected' }), false)).toBe('[Voice call] Declined');
    expect(preview('en_US', record({ outcome: 'cancelled' }), false)).toBe(
      '[Voice call] Cancelled by caller',
    );
    expect(preview('en_US', record({ outcome: 'failed', durationSeconds: 12 }), true)).toBe(
      '[Voice call] Call failed',
    );
    expect(preview('zh_CN', completed, true)).toBe('[语音通话] 3:21');
    expect(preview('zh_CN', missedVideo, false)).toBe('[未接视频通话]');
    expect(preview('zh_TW', completed, true)).toBe('[語音通話] 3:21');
    expect(preview('zh_TW', missedVideo, true)).toBe('[視訊通話] 對方未接聽');
  });

  it('names a group call as one', () => {
    const ended = record({ group: true, outcome: 'rejected' });
    expect(preview('en_US', record({ group: true, durationSeconds: 723 }), false)).toBe(
      '[Group voice call] 12:03',
    );
    expect(preview('en_US', ended, false)).toBe('[Group voice call]');
    expect(preview('zh_CN', record({ group: true, outcome: 'missed' }), false)).toBe(
      '[未接群语音通话]',
    );
    expect(preview('zh_TW', ended, false)).toBe('[群組語音通話]');
  });
});

describe('the call back button’s name', () => {
  it('says it calls back, with which media, and what the record says', () => {
    const missedVoice = callRecordView(record({ outcome: 'missed' }), false);
    const video = callRecordView(record({ media: 'video', durationSeconds: 62 }), true);
    expect(callBackLabel(missedVoice, textsOf('en_US'))).toBe(
      'Call back with a voice call (Missed voice call)',
    );
    expect(callBackLabel(video, textsOf('en_US'))).toBe(
      'Call back with a video call (Video call · 1:02)',
    );
    expect(callBackLabel(missedVoice, textsOf('zh_CN'))).toBe('语音回拨（未接语音通话）');
    expect(callBackLabel(video, textsOf('zh_TW'))).toBe('視訊回撥（視訊通話 · 1:02）');
  });
});
