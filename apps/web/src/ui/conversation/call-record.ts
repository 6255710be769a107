import type { CallContent } from '@teltlk/protocol';

/*
 * The record a call leaves in its chat, as its reader sees it. The server writes one
 * record for everyone, sent as the caller; each reader's app words it from where they
 * stood: the caller's "No answer" is the callee's "Missed voice call".
 */

/** What happened to the call, from the reader's side. */
export type CallRecordStatus =
  /** It took place; the duration says how long. */
  | 'lasted'
  /** The reader was called and did not answer (or the caller gave up, or they were busy). */
  | 'missed'
  /** The reader called and no one answered. */
  | 'noAnswer'
  /** The reader declined it. */
  | 'declinedByYou'
  /** The reader called and was declined. */
  | 'declined'
  /** The reader called and hung up before an answer. */
  | 'cancelled'
  /** The reader was called and the caller hung up before an answer. */
  | 'cancelledByCaller'
  /** The reader called someone already in another call. */
  | 'busy'
  /** Its media was lost; the duration says after how long, when it had started. */
  | 'failed'
  /** A group call the reader did not start, that ended without taking place. */
  | 'ended';

export interface CallRecordView {
  media: CallContent['media'];
  group: boolean;
  status: CallRecordStatus;
  /** "3:21", "1:02:05"; null when there is no time to tell. */
  duration: string | null;
}

/** A call's length as phones show it: m:ss below an hour, h:mm:ss from an hour on. */
export function formatCallDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/**
 * A call record from the reader's side: `own` when the reader is its sender, the caller.
 * In a group, everyone but the caller was rung: an unanswered or cancelled group call is
 * missed for them, one declined by all or refused as busy has just ended.
 */
export function callRecordView(content: CallContent, own: boolean): CallRecordView {
  const { media, group, outcome, durationSeconds } = content;
  const view = (status: CallRecordStatus, duration: string | null = null): CallRecordView => ({
    media,
    group,
    status,
    duration,
  });
  switch (outcome) {
    case 'completed':
      return view('lasted', formatCallDuration(durationSeconds));
    case 'failed':
      return view('failed', durationSeconds > 0 ? formatCallDuration(durationSeconds) : null);
    case 'missed':
      return view(own ? 'noAnswer' : 'missed');
    case 'rejected':
      return view(own ? 'declined' : group ? 'ended' : 'declinedByYou');
    case 'cancelled':
      return view(own ? 'cancelled' : group ? 'missed' : 'cancelledByCaller');
    case 'busy':
      return view(own ? 'busy' : group ? 'ended' : 'missed');
  }
}

/** Whether the record tells its reader of a call they missed (shown in red, and alerted). */
export function isMissedCall(view: CallRecordView): boolean {
  return view.status === 'missed';
}

/** The catalog's call record texts this module words records with. */
export type CallRecordKey =
  | 'callRecord.voice'
  | 'callRecord.video'
  | 'callRecord.groupVoice'
  | 'callRecord.groupVideo'
  | 'callRecord.lasted'
  | 'callRecord.missedVoice'
  | 'callRecord.missedVideo'
  | 'callRecord.missedGroupVoice'
  | 'callRecord.missedGroupVideo'
  | 'callRecord.groupVoiceEnded'
  | 'callRecord.groupVideoEnded'
  | 'callRecord.noAnswer'
  | 'callRecord.declinedByYou'
  | 'callRecord.declined'
  | 'callRecord.cancelled'
  | 'callRecord.cancelledByCaller'
  | 'callRecord.busy'
  | 'callRecord.failed'
  | 'callRecord.failedAfter'
  | 'callRecord.preview'
  | 'callRecord.previewDetail'
  | 'callRecord.callBackVoice'
  | 'callRecord.callBackVideo';

export type CallRecordText = (key: CallRecordKey, params?: Record<string, string>) => string;

/** "Voice call", "Group video call": the kind of call, in the reader's language. */
function callName(view: CallRecordView, t: CallRecordText): string {
  if (view.group)
    return t(view.media === 'video' ? 'callRecord.groupVideo' : 'callRecord.groupVoice');
  return t(view.media === 'video' ? 'callRecord.video' : 'callRecord.voice');
}

/** "Missed voice call", "Missed group video call". */
function missedName(view: CallRecordView, t: CallRecordText): string {
  if (view.group) {
    return t(
      view.media === 'video' ? 'callRecord.missedGroupVideo' : 'callRecord.missedGroupVoice',
    );
  }
  return t(view.media === 'video' ? 'callRecord.missedVideo' : 'callRecord.missedVoice');
}

/** What the outcome alone says: "No answer", "Call declined", "Cancelled by caller". */
function outcomeText(view: CallRecordView, t: CallRecordText): string {
  switch (view.status) {
    case 'noAnswer':
      return t('callRecord.noAnswer');
    case 'declinedByYou':
      return t('callRecord.declinedByYou');
    case 'declined':
      return t('callRecord.declined');
    case 'cancelled':
      return t('callRecord.cancelled');
    case 'cancelledByCaller':
      return t('callRecord.cancelledByCaller');
    case 'busy':
      return t('callRecord.busy');
    default:
      return t('callRecord.failed');
  }
}

/**
 * The record's line in its bubble: "Voice call · 3:21", "Missed video call", "No answer",
 * "Call failed · 0:12", "Group voice call ended".
 */
export function callRecordLine(view: CallRecordView, t: CallRecordText): string {
  switch (view.status) {
    case 'lasted':
      return t('callRecord.lasted', { call: callName(view, t), duration: view.duration ?? '' });
    case 'missed':
      return missedName(view, t);
    case 'ended':
      return t(
        view.media === 'video' ? 'callRecord.groupVideoEnded' : 'callRecord.groupVoiceEnded',
      );
    case 'failed':
      return view.duration === null
        ? t('callRecord.failed')
        : t('callRecord.failedAfter', { duration: view.duration });
    default:
      return outcomeText(view, t);
  }
}

/**
 * The record as one line of the chat list or a notification: "[Voice call] 3:21",
 * "[Missed video call]", "[Voice call] No answer", "[Group video call]".
 */
export function callRecordPreview(view: CallRecordView, t: CallRecordText): string {
  const call = callName(view, t);
  switch (view.status) {
    case 'lasted':
      return t('callRecord.previewDetail', { call, detail: view.duration ?? '' });
    case 'missed':
      return t('callRecord.preview', { call: missedName(view, t) });
    case 'ended':
      return t('callRecord.preview', { call });
    default:
      return t('callRecord.previewDetail', { call, detail: outcomeText(view, t) });
  }
}

/** The record's button, named for what it does: "Call back with a voice call (No answer)". */
export function callBackLabel(view: CallRecordView, t: CallRecordText): string {
  const line = callRecordLine(view, t);
  return t(view.media === 'video' ? 'callRecord.callBackVideo' : 'callRecord.callBackVoice', {
    line,
  });
}
