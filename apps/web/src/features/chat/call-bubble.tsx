import type { CallContent } from '@teltlk/protocol';
import { CameraOutline, PhoneFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { startCall } from '../../app/start-call';
import {
  callBackLabel,
  callRecordLine,
  callRecordView,
  isMissedCall,
} from '../../ui/conversation/call-record';

/**
 * The record a call left in the chat, on its caller's side as messengers show it: a phone
 * or a camera and one line in the reader's words ("Voice call · 3:21", "Missed video
 * call"). It is a button: a tap, Enter or Space calls back with the same media.
 */
export function CallBubble({
  conversationId,
  content,
  own,
}: {
  conversationId: string;
  content: CallContent;
  /** The reader started the call (the record is sent as the caller). */
  own: boolean;
}) {
  const { t } = useTranslation();
  const view = callRecordView(content, own);
  const Icon = content.media === 'video' ? CameraOutline : PhoneFill;
  return (
    <button
      type="button"
      className={isMissedCall(view) ? 'tt-msg-call tt-msg-call-missed' : 'tt-msg-call'}
      aria-label={callBackLabel(view, t)}
      onClick={() => startCall(conversationId, content.media)}
    >
      <Icon className="tt-msg-call-icon" aria-hidden />
      <span>{callRecordLine(view, t)}</span>
    </button>
  );
}
