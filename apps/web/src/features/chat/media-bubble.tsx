import { PENDING_MEDIA_ID, type LocalMessage, type UploadProgress } from '@teltlk/im-sdk';
import type { FileContent, ImageContent } from '@teltlk/protocol';
import { CloseOutline, FileOutline, PlayOutline } from 'antd-mobile-icons';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { thumbHashToDataURL } from 'thumbhash';
import { useMediaAddress } from '../../api/media-urls';
import { useEngine } from '../../app/engine';
import { useUiLocale } from '../../ui/pickers';
import { formatBytes, photoBox } from './media-files';

const NO_PROGRESS = () => () => {};

/** Where an own photo or file stands in its upload (null once uploaded, or for others'). */
function useUploadProgress(message: LocalMessage): UploadProgress | null {
  const engine = useEngine();
  return useSyncExternalStore(
    engine ? (listener) => engine.subscribeUploads(listener) : NO_PROGRESS,
    () => engine?.uploadProgress(message.clientMsgId) ?? null,
  );
}

/** The bytes of an own photo not sent yet, shown from this device while they upload. */
function usePendingPicture(message: LocalMessage, pending: boolean): string | null {
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
  const { t } = useTranslation();
  const { image } = content;
  const pending = image.id === PENDING_MEDIA_ID;
  const local = usePendingPicture(message, pending);
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
  const { t } = useTranslation();
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
        <a
          className="tt-msg-file"
          href={address.url}
          download={file.name}
          aria-label={t('chat.downloadFile', { name: file.name })}
        >
          {body}
        </a>
      ) : (
        <span className="tt-msg-file">{body}</span>
      )}
      {pending ? <UploadControls message={message} /> : null}
    </div>
  );
}

/** An upload's progress, with pause or resume, and cancel; nothing once it failed (retry shows). */
function UploadControls({ message }: { message: LocalMessage }) {
  const { t } = useTranslation();
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
