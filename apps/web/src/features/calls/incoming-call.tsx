import { PhoneFill, VideoOutline } from 'antd-mobile-icons';
import type { Call, CallMedia } from '@teltlk/protocol';
import { useEffect, useRef } from 'react';
import { Avatar } from '../../ui/avatar';
import { useCallTexts } from '../../i18n/calls';
import type { Face } from './call-view';

/**
 * A call ringing this device: full screen, the caller's face and name (and the group's),
 * accept and decline. Accept has the focus, so Enter or Space answers; Escape does not
 * decline, so a stray key never hangs up on someone.
 */
export function IncomingCall({
  call,
  title,
  caller,
  onAccept,
  onDecline,
}: {
  call: Call;
  title: string;
  caller: Face;
  onAccept: (media: CallMedia) => void;
  onDecline: () => void;
}) {
  const { t } = useCallTexts();
  const accept = useRef<HTMLButtonElement>(null);
  useEffect(() => accept.current?.focus(), [call.id]);
  const group = call.kind === 'group';
  const video = call.media === 'video';
  const what = group
    ? t(video ? 'incomingGroupVideo' : 'incomingGroupVoice', { name: caller.name })
    : t(video ? 'incomingVideo' : 'incomingVoice');
  return (
    <div
      className="tt-call tt-call-incoming"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="tt-call-incoming-title"
      aria-describedby="tt-call-incoming-what"
    >
      <div className="tt-call-caller">
        <Avatar id={call.callerId} name={caller.name || title} url={caller.avatarUrl} size={96} />
        <h2 id="tt-call-incoming-title" className="tt-call-title" dir="auto">
          {group ? title : caller.name || title}
        </h2>
        <p id="tt-call-incoming-what" className="tt-call-status">
          {what}
        </p>
      </div>
      <ul className="tt-call-answer">
        <li>
          <button
            type="button"
            className="tt-call-control tt-call-danger"
            data-call-action="decline"
            aria-label={t('decline')}
            onClick={onDecline}
          >
            <PhoneFill className="tt-call-hangup-icon" aria-hidden />
          </button>
          <span className="tt-call-control-label" aria-hidden>
            {t('decline')}
          </span>
        </li>
        {video ? (
          <li>
            <button
              type="button"
              className="tt-call-control"
              data-call-action="accept-audio"
              aria-label={t('acceptVoice')}
              onClick={() => onAccept('audio')}
            >
              <PhoneFill aria-hidden />
            </button>
            <span className="tt-call-control-label" aria-hidden>
              {t('acceptVoice')}
            </span>
          </li>
        ) : null}
        <li>
          <button
            ref={accept}
            type="button"
            className="tt-call-control tt-call-accept"
            data-call-action="accept"
            aria-label={video ? t('acceptVideo') : t('accept')}
            onClick={() => onAccept(call.media)}
          >
            {video ? <VideoOutline aria-hidden /> : <PhoneFill aria-hidden />}
          </button>
          <span className="tt-call-control-label" aria-hidden>
            {video ? t('acceptVideo') : t('accept')}
          </span>
        </li>
      </ul>
    </div>
  );
}
