import {
  AudioMutedOutline,
  AudioOutline,
  PhoneFill,
  SoundOutline,
  UndoOutline,
  UploadOutline,
  VideoOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useCallTexts } from '../../i18n/calls';
import type { SessionView } from './call-session';

/** The audio output in use, and the next one (speaker, headset…). */
export interface OutputChoice {
  label: string;
  sinkId: string;
  next: () => void;
}

function Control({
  label,
  pressed,
  onClick,
  icon,
  danger = false,
  action,
}: {
  label: string;
  pressed?: boolean;
  onClick: () => void;
  icon: ReactNode;
  danger?: boolean;
  action: string;
}) {
  return (
    <li>
      <button
        type="button"
        className={danger ? 'tt-call-control tt-call-danger' : 'tt-call-control'}
        aria-label={label}
        aria-pressed={pressed}
        data-call-action={action}
        onClick={onClick}
      >
        {icon}
      </button>
      <span className="tt-call-control-label" aria-hidden>
        {label}
      </span>
    </li>
  );
}

/** Mute, camera, switch camera, speaker, screen, hang up: the bar under a call. */
export function CallControls({
  view,
  cameras,
  screen,
  output,
  onMic,
  onCamera,
  onSwitchCamera,
  onShare,
  onHangUp,
  hangUpLabel,
  hangUpAction,
}: {
  view: SessionView;
  cameras: number;
  screen: boolean;
  output: OutputChoice | null;
  onMic: () => void;
  onCamera: () => void;
  onSwitchCamera: () => void;
  onShare: () => void;
  onHangUp: () => void;
  hangUpLabel: string;
  hangUpAction: 'hangup' | 'cancel';
}) {
  const { t } = useCallTexts();
  const video = view.media === 'video';
  return (
    <ul className="tt-call-controls">
      <Control
        action="mute"
        label={view.micOn ? t('mute') : t('unmute')}
        pressed={!view.micOn}
        onClick={onMic}
        icon={view.micOn ? <AudioOutline aria-hidden /> : <AudioMutedOutline aria-hidden />}
      />
      {video ? (
        <Control
          action="camera"
          label={view.cameraOn ? t('cameraOff') : t('cameraOn')}
          pressed={!view.cameraOn}
          onClick={onCamera}
          icon={<VideoOutline aria-hidden />}
        />
      ) : null}
      {video && cameras > 1 && !view.sharing ? (
        <Control
          action="switch-camera"
          label={t('switchCamera')}
          onClick={onSwitchCamera}
          icon={<UndoOutline aria-hidden />}
        />
      ) : null}
      {output ? (
        <Control
          action="speaker"
          label={`${t('speakerOn')}: ${output.label}`}
          onClick={output.next}
          icon={<SoundOutline aria-hidden />}
        />
      ) : null}
      {screen ? (
        <Control
          action="share-screen"
          label={view.sharing ? t('stopSharing') : t('shareScreen')}
          pressed={view.sharing}
          onClick={onShare}
          icon={<UploadOutline aria-hidden />}
        />
      ) : null}
      <Control
        action={hangUpAction}
        label={hangUpLabel}
        onClick={onHangUp}
        icon={<PhoneFill aria-hidden className="tt-call-hangup-icon" />}
        danger
      />
    </ul>
  );
}
