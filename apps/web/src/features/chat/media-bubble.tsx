import { PENDING_MEDIA_ID, type LocalMessage, type UploadProgress } from '@teltlk/im-sdk';
import {
  VIDEO_RATES,
  type FileContent,
  type ImageContent,
  type VideoContent,
  type VoiceContent,
} from '@teltlk/protocol';
import { CloseOutline, FileOutline, PlayOutline } from 'antd-mobile-icons';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { thumbHashToDataURL } from 'thumbhash';
import { useMediaAddress } from '../../api/media-urls';
import { useEngine } from '../../app/engine';
import { useUiLocale } from '../../ui/use-ui-locale';
import { clockDuration, formatBytes, photoBox } from './media-files';
import { waveformBars } from './voice-recorder';

const NO_PROGRESS = () => () => {};

/** Where an own photo or file stands in its upload (null once uploaded, or for others'). */
function useUploadProgress(message: LocalMessage): UploadProgress | null {
  const engine = useEngine();
  return useSyncExternalStore(
    engine ? (listener) => engine.subscribeUploads(listener) : NO_PROGRESS,
    () => engine?.uploadProgress(message.clientMsgId) ?? null,
  );
}

/** The bytes of own media not sent yet, shown (or played) from this device while they upload. */
function usePendingMedia(message: LocalMessage, pending: boolean): string | null {
  const engine = useEngine();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!pending || !engine) return;
    let objectUrl: string | null = null;
    let gone = false;
    void engine.pendingMedia(message.clientMsgId).then((blob) => {
      if (gone || !blob) return;
      objectUrl = URL.createObjectURL(blob);
      setUrl(objectUrl);
    });
    return () => {
      gone = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [engine, message.clientMsgId, pending]);
  return pending ? url : null;
}

function placeholderOf(hash: string | undefined): string | undefined {
  if (!hash) return undefined;
  try {
    const bytes = Uint8Array.from(atob(hash), (char) => char.charCodeAt(0));
    return thumbHashToDataURL(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A photo in its bubble at its own shape: the placeholder drawn from its ThumbHash until
 * the thumbnail is there; a tap opens the viewer. An own photo still uploading shows from
 * the device, with its progress and controls.
 */
export function PhotoBubble({
  message,
  content,
  onOpen,
}: {
  message: LocalMessage;
  content: ImageContent;
  onOpen?: (message: LocalMessage) => void;
}) {
  const { t } = usePageTexts();
  const { image } = content;
  const pending = image.id === PENDING_MEDIA_ID;
  const local = usePendingMedia(message, pending);
  const address = useMediaAddress(pending ? null : image.id);
  const placeholder = useMemo(() => placeholderOf(image.placeholder), [image.placeholder]);
  const [loaded, setLoaded] = useState(false);
  const box = photoBox(image.width, image.height);
  const source = local ?? (address && address !== 'missing' ? address.thumb : null);
  const picture = (
    <span
      className="tt-msg-photo"
      style={{
        width: box.width,
        height: box.height,
        backgroundImage: placeholder && !loaded ? `url(${placeholder})` : undefined,
      }}
    >
      {source ? (
        <img
          src={source}
          alt=""
          width={box.width}
          height={box.height}
          decoding="async"
          onLoad={() => setLoaded(true)}
        />
      ) : null}
      {address === 'missing' ? (
        <span className="tt-msg-photo-gone">{t('chat.photoUnavailable')}</span>
      ) : null}
    </span>
  );
  return (
    <div className="tt-msg-media">
      {pending || !onOpen ? (
        <span role="img" aria-label={t('chat.photoLabel')}>
          {picture}
        </span>
      ) : (
        <button
          type="button"
          className="tt-msg-photo-open"
          aria-label={t('chat.openPhoto')}
          onClick={() => onOpen(message)}
        >
          {picture}
        </button>
      )}
      {pending ? <UploadControls message={message} /> : null}
    </div>
  );
}

/** A file in its bubble: type, name and size; a tap downloads it under its name. */
export function FileBubble({ message, content }: { message: LocalMessage; content: FileContent }) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const { file } = content;
  const pending = file.id === PENDING_MEDIA_ID;
  const address = useMediaAddress(pending ? null : file.id);
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(file.name)?.[1]?.toUpperCase();
  const body = (
    <>
      <span className="tt-msg-file-icon" aria-hidden>
        {extension ? <span className="tt-msg-file-ext">{extension}</span> : <FileOutline />}
      </span>
      <span className="tt-msg-file-text">
        <span className="tt-msg-file-name" dir="auto">
          {file.name}
        </span>
        <span className="tt-msg-file-size">{formatBytes(file.size, locale)}</span>
      </span>
    </>
  );
  return (
    <div className="tt-msg-media">
      {address && address !== 'missing' ? (
        <a className="tt-msg-file" href={address.url} download={file.name}>
          <span className="tt-visually-hidden">{t('chat.download')} </span>
          {body}
        </a>
      ) : (
        <span className="tt-msg-file">{body}</span>
      )}
      {pending ? <UploadControls message={message} /> : null}
    </div>
  );
}

/** The voice playing now: starting another pauses it (one voice at a time). */
let playingVoice: HTMLAudioElement | null = null;

/**
 * A voice message: play or pause, its waveform filling as it plays, its length. Wider for
 * a longer message, as people expect.
 */
export function VoiceBubble({
  message,
  content,
}: {
  message: LocalMessage;
  content: VoiceContent;
}) {
  const { t } = usePageTexts();
  const { voice } = content;
  const pending = voice.id === PENDING_MEDIA_ID;
  const local = usePendingMedia(message, pending);
  const address = useMediaAddress(pending ? null : voice.id);
  const source = local ?? (address && address !== 'missing' ? address.url : null);
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [progress, setProgress] = useState(0);
  const duration = clockDuration(voice.durationMs);
  const width = Math.min(220, 120 + Math.round(voice.durationMs / 600));
  // As many bars as the bubble has room for beside the button and the length.
  const barCount = Math.max(8, Math.floor((width - 88) / 4));
  const bars = useMemo(() => waveformBars(voice.waveform, barCount), [voice.waveform, barCount]);

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (!element.paused) return element.pause();
    if (playingVoice && playingVoice !== element) playingVoice.pause();
    playingVoice = element;
    void element.play().catch(() => setPlaying(false));
  };

  return (
    <div className="tt-msg-media">
      <div className="tt-msg-voice" style={{ width }}>
        <button
          type="button"
          className="tt-msg-voice-play"
          disabled={!source}
          aria-label={playing ? t('chat.pauseVoice') : t('chat.playVoice', { duration })}
          onClick={toggle}
        >
          {playing ? <span className="tt-upload-pause" aria-hidden /> : <PlayOutline aria-hidden />}
        </button>
        <span className="tt-msg-voice-wave" aria-hidden>
          {bars.map((bar, index) => (
            <span
              key={index}
              className={index / bars.length < progress ? 'tt-wave-played' : undefined}
              style={{ height: `${Math.round(3 + bar * 17)}px` }}
            />
          ))}
        </span>
        <span className="tt-msg-voice-length">{duration}</span>
        {source ? (
          <audio
            ref={audio}
            src={source}
            preload="none"
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
            onEnded={() => {
              setPlaying(false);
              setProgress(0);
            }}
            onTimeUpdate={(event) =>
              setProgress(event.currentTarget.currentTime / Math.max(voice.durationMs / 1000, 0.1))
            }
          />
        ) : null}
      </div>
      {pending ? <UploadControls message={message} /> : null}
    </div>
  );
}

/**
 * A video: its poster at its shape with its length, and a tap plays it in place, with
 * the spec's speeds.
 */
export function VideoBubble({
  message,
  content,
}: {
  message: LocalMessage;
  content: VideoContent;
}) {
  const { t } = usePageTexts();
  const { video } = content;
  const pending = video.id === PENDING_MEDIA_ID;
  const [open, setOpen] = useState(false);
  const poster = useMediaAddress(pending ? null : video.poster.id);
  const film = useMediaAddress(open ? video.id : null);
  const placeholder = useMemo(
    () => placeholderOf(video.poster.placeholder),
    [video.poster.placeholder],
  );
  const [rate, setRate] = useState(1);
  const player = useRef<HTMLVideoElement>(null);
  const box = photoBox(video.width, video.height);
  const duration = clockDuration(video.durationMs);
  const posterUrl = poster && poster !== 'missing' ? poster.thumb : null;

  useEffect(() => {
    if (player.current) player.current.playbackRate = rate;
  }, [rate, film]);

  return (
    <div className="tt-msg-media">
      {open && film && film !== 'missing' ? (
        <div className="tt-msg-video-player">
          <video
            ref={player}
            src={film.url}
            poster={posterUrl ?? undefined}
            controls
            autoPlay
            playsInline
            width={box.width}
            height={box.height}
          />
          <label className="tt-msg-video-rate">
            {t('chat.playbackRate')}
            <select value={rate} onChange={(event) => setRate(Number(event.target.value))}>
              {VIDEO_RATES.map((each) => (
                <option key={each} value={each}>
                  {each}×
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : (
        <button
          type="button"
          className="tt-msg-video"
          disabled={pending}
          aria-label={t('chat.playVideo', { duration })}
          style={{
            width: box.width,
            height: box.height,
            backgroundImage: posterUrl
              ? `url(${posterUrl})`
              : placeholder
                ? `url(${placeholder})`
                : undefined,
          }}
          onClick={() => setOpen(true)}
        >
          <span className="tt-msg-video-play" aria-hidden>
            <PlayOutline />
          </span>
          <span className="tt-msg-video-length">{duration}</span>
        </button>
      )}
      {pending ? <UploadControls message={message} /> : null}
    </div>
  );
}

/** An upload's progress, with pause or resume, and cancel; nothing once it failed (retry shows). */
function UploadControls({ message }: { message: LocalMessage }) {
  const { t } = usePageTexts();
  const engine = useEngine();
  const progress = useUploadProgress(message);
  if (!engine || !progress || message.status === 'failed') return null;
  const percent = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return (
    <div className="tt-upload">
      <progress
        className="tt-upload-bar"
        max={100}
        value={percent}
        aria-label={progress.paused ? t('chat.uploadPaused') : t('chat.uploading', { percent })}
      />
      <span className="tt-upload-state" aria-live="polite">
        {progress.paused ? t('chat.uploadPaused') : t('chat.uploading', { percent })}
      </span>
      <button
        type="button"
        className="tt-icon-button"
        aria-label={progress.paused ? t('chat.resumeUpload') : t('chat.pauseUpload')}
        onClick={() =>
          void (progress.paused
            ? engine.resumeUpload(message.clientMsgId)
            : engine.pauseUpload(message.clientMsgId))
        }
      >
        {progress.paused ? (
          <PlayOutline aria-hidden />
        ) : (
          <span className="tt-upload-pause" aria-hidden />
        )}
      </button>
      <button
        type="button"
        className="tt-icon-button"
        aria-label={t('chat.cancelUpload')}
        onClick={() => void engine.cancelUpload(message.clientMsgId)}
      >
        <CloseOutline aria-hidden />
      </button>
    </div>
  );
}
