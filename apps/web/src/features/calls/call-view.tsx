import type { Call } from '@teltlk/protocol';
import { PhoneFill } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { Avatar } from '../../ui/avatar';
import { useCallTexts } from '../../i18n/calls';
import type { CallSession, RemotePerson, SessionView } from './call-session';
import { canPickOutput, canShareScreen, cameraCount } from './local-media';
import { CallControls, type OutputChoice } from './call-controls';
import { callClock, gridColumns } from './call-clock';

/** A name and a face for someone in a call. */
export interface Face {
  name: string;
  avatarUrl: string | null;
}

/** Plays a stream in a video element (muted: the sound plays through its own element). */
export function StreamVideo({
  stream,
  mirrored = false,
  remoteOf,
  label,
}: {
  stream: MediaStream;
  mirrored?: boolean;
  /** The remote person's id, for `data-call-remote`. */
  remoteOf?: string;
  label: string;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (video && video.srcObject !== stream) video.srcObject = stream;
  }, [stream]);
  return (
    <video
      ref={ref}
      className={mirrored ? 'tt-call-video tt-call-mirrored' : 'tt-call-video'}
      autoPlay
      playsInline
      muted
      aria-label={label}
      data-call-remote={remoteOf}
    />
  );
}

/** The remote sound, kept playing whether the call is on screen or minimized. */
export function RemoteAudio({ stream, sinkId }: { stream: MediaStream; sinkId: string | null }) {
  const ref = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const audio = ref.current;
    if (audio && audio.srcObject !== stream) audio.srcObject = stream;
  }, [stream]);
  useEffect(() => {
    const audio = ref.current;
    if (audio?.setSinkId && sinkId !== null) void audio.setSinkId(sinkId).catch(() => undefined);
  }, [sinkId]);
  return <audio ref={ref} autoPlay data-call-audio />;
}

/** Seconds since `since`, ticking every second. */
export function useElapsed(since: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, Math.floor((now - since) / 1000));
}

/** The audio outputs this device offers (speaker, headset…), when it lets a page pick one. */
export function useOutputs(): OutputChoice | null {
  const [outputs, setOutputs] = useState<MediaDeviceInfo[]>([]);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!canPickOutput() || !navigator.mediaDevices?.enumerateDevices) return;
    void navigator.mediaDevices
      .enumerateDevices()
      .then((devices) => setOutputs(devices.filter((d) => d.kind === 'audiooutput')))
      .catch(() => undefined);
  }, []);
  if (outputs.length < 2) return null;
  const current = outputs[index % outputs.length]!;
  return {
    label: current.label,
    sinkId: current.deviceId,
    next: () => setIndex((value) => (value + 1) % outputs.length),
  };
}

function Tile({
  person,
  face,
  stream,
  self,
  cameraOn,
}: {
  person: RemotePerson | null;
  face: Face;
  stream: MediaStream | null;
  self: boolean;
  cameraOn: boolean;
}) {
  const { t } = useCallTexts();
  const hasVideo = (stream?.getVideoTracks().length ?? 0) > 0 && cameraOn;
  const talking = person?.talking ?? false;
  return (
    <li className={talking ? 'tt-call-tile tt-call-talking' : 'tt-call-tile'}>
      {hasVideo && stream ? (
        <StreamVideo
          stream={stream}
          mirrored={self}
          remoteOf={self ? undefined : person?.userId}
          label={face.name}
        />
      ) : (
        <Avatar id={person?.userId ?? 'self'} name={face.name} url={face.avatarUrl} size={72} />
      )}
      <span className="tt-call-tile-name">{self ? t('you') : face.name}</span>
      {talking ? (
        <span className="tt-visually-hidden">{t('speaking', { name: face.name })}</span>
      ) : null}
    </li>
  );
}

/**
 * The screen of a call that was taken: the other person (or the group's grid), the
 * duration and the quality mark, and the controls. Escape minimizes it.
 */
export function InCallView({
  session,
  view,
  call,
  title,
  faceOf,
  selfFace,
  peerFace,
  output,
}: {
  session: CallSession;
  view: SessionView;
  call: Call | undefined;
  title: string;
  faceOf: (userId: string) => Face;
  selfFace: Face;
  /** The other person of a one-to-one call. */
  peerFace: Face | null;
  output: OutputChoice | null;
}) {
  const { t } = useCallTexts();
  const elapsed = useElapsed(view.flowingSince);
  const [cameras, setCameras] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    void cameraCount()
      .then(setCameras)
      .catch(() => undefined);
    heading.current?.focus();
  }, []);
  const ringing = call?.state === 'ringing' && !view.group;
  const status = ringing
    ? t('calling')
    : view.reconnecting
      ? t('reconnecting')
      : view.flowingSince === null
        ? t('connecting')
        : callClock(elapsed);
  const single = !view.group;
  const remote = single ? view.remotes[0] : undefined;
  const remoteVideo =
    remote?.stream && remote.stream.getVideoTracks().length > 0 && view.media === 'video'
      ? remote.stream
      : null;
  const others = single ? null : view.remotes;
  return (
    <div
      className={view.media === 'video' ? 'tt-call tt-call-dark' : 'tt-call'}
      role="dialog"
      aria-modal="true"
      aria-labelledby="tt-call-title"
      onKeyDown={(event) => {
        if (event.key === 'Escape') session.setMinimized(true);
      }}
    >
      <div className="tt-call-top">
        <h2 id="tt-call-title" className="tt-call-title" ref={heading} tabIndex={-1} dir="auto">
          {title}
        </h2>
        <p className="tt-call-status" aria-live="polite">
          <span
            aria-label={view.flowingSince !== null ? t('duration', { time: status }) : undefined}
          >
            {status}
          </span>
          {view.quality ? (
            <span className={`tt-call-quality tt-call-quality-${view.quality}`}>
              {t(`quality.${view.quality}`)}
            </span>
          ) : null}
        </p>
        <button
          type="button"
          className="tt-call-minimize"
          aria-label={t('minimize')}
          onClick={() => session.setMinimized(true)}
        >
          <span aria-hidden>⌄</span>
        </button>
      </div>
      {others ? (
        <ul
          className="tt-call-grid"
          style={{ gridTemplateColumns: `repeat(${gridColumns(others.length + 1)}, 1fr)` }}
          aria-label={t('people', { count: others.length + 1 })}
        >
          <Tile person={null} face={selfFace} stream={view.local} self cameraOn={view.cameraOn} />
          {others.map((person) => (
            <Tile
              key={person.userId}
              person={person}
              face={faceOf(person.userId)}
              stream={person.stream}
              self={false}
              cameraOn
            />
          ))}
        </ul>
      ) : (
        <div className="tt-call-stage">
          {remoteVideo && remote ? (
            <StreamVideo stream={remoteVideo} remoteOf={remote.userId} label={title} />
          ) : (
            <Avatar
              id={call?.conversationId ?? ''}
              name={peerFace?.name ?? title}
              url={peerFace?.avatarUrl ?? null}
              size={120}
            />
          )}
          {view.media === 'video' && view.local && view.cameraOn ? (
            <div className="tt-call-self">
              <StreamVideo stream={view.local} mirrored={!view.sharing} label={t('you')} />
            </div>
          ) : null}
        </div>
      )}
      <CallControls
        view={view}
        cameras={cameras}
        screen={canShareScreen() && view.media === 'video'}
        output={output}
        onMic={() => session.setMic(!view.micOn)}
        onCamera={() => session.setCamera(!view.cameraOn)}
        onSwitchCamera={() => void session.switchCamera().catch(() => undefined)}
        onShare={() => void session.shareScreen(!view.sharing).catch(() => undefined)}
        onHangUp={() => void session.hangup().catch(() => undefined)}
        hangUpLabel={ringing ? t('cancel') : t('hangUp')}
        hangUpAction={ringing ? 'cancel' : 'hangup'}
      />
    </div>
  );
}

/** The call, minimized: a small window over the app, back to the call on a tap. */
export function MinimizedCall({
  session,
  view,
  title,
}: {
  session: CallSession;
  view: SessionView;
  title: string;
}) {
  const { t } = useCallTexts();
  const elapsed = useElapsed(view.flowingSince);
  const remote = view.remotes.find((person) => (person.stream?.getVideoTracks().length ?? 0) > 0);
  return (
    <button
      type="button"
      className="tt-call-mini"
      aria-label={`${t('restore')}: ${title}`}
      onClick={() => session.setMinimized(false)}
    >
      {remote?.stream && view.media === 'video' ? (
        <StreamVideo stream={remote.stream} remoteOf={remote.userId} label={title} />
      ) : (
        <PhoneFill className="tt-call-mini-icon" aria-hidden />
      )}
      <span className="tt-call-mini-time">
        {view.flowingSince === null ? t('connecting') : callClock(elapsed)}
      </span>
    </button>
  );
}
