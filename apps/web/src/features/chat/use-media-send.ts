import { ApiError, type ConversationHandle } from '@teltlk/im-sdk';
import { IMAGES_PER_PICK_MAX, type MediaLimits } from '@teltlk/protocol';
import { useState, type DragEvent } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useMediaLimits } from '../../api/queries';
import { toastFailure } from '../../ui/failure-toast';
import { showToast } from '../../ui/toast';
import type { MediaShareKind, ShareKind } from './composer';
import { pastedKind } from './composer';
import { preparePhoto, prepareVideo, splitPhotos } from './media-files';
import type { Recording } from './voice-recorder';

const MB = 1024 * 1024;

/** A file over its kind's limit, refused here with the server's own words before any upload. */
function tooLarge(size: number, max: number | undefined): ApiError | null {
  if (max === undefined || size <= max) return null;
  return new ApiError('MEDIA_TOO_LARGE', 413, { megabytes: Math.floor(max / MB) });
}

/**
 * Sending picked, pasted or dropped files: photos (at most IMAGES_PER_PICK_MAX at a time,
 * each its own message, very large ones scaled down first) and files. What breaks a
 * limit is refused at once, with the reason; the rest is queued, uploaded and sent.
 */
export function useMediaSend(
  handle: ConversationHandle | null,
  allowed: readonly ShareKind[],
  onQueued: () => void,
) {
  const { t } = usePageTexts();
  const limits: MediaLimits | undefined = useMediaLimits().data;
  const [dragging, setDragging] = useState(false);

  const sendFiles = async (kind: MediaShareKind, files: readonly File[]) => {
    if (!handle) return;
    let picked = files;
    if (kind === 'image') {
      const { photos, others } = splitPhotos(files);
      if (others.length > 0) toastFailure(new ApiError('MEDIA_TYPE_UNSUPPORTED', 415));
      if (photos.length > IMAGES_PER_PICK_MAX) {
        showToast(t('chat.photosAtOnce', { count: IMAGES_PER_PICK_MAX }));
      }
      picked = photos.slice(0, IMAGES_PER_PICK_MAX);
    }
    for (const file of picked) {
      try {
        if (kind === 'image') {
          const photo = await preparePhoto(file, limits?.image ?? null);
          if (!photo) {
            showToast(t('chat.photoUnreadable'));
            continue;
          }
          const refused = tooLarge(photo.blob.size, limits?.image);
          if (refused) throw refused;
          await handle.sendMedia({ kind: 'image', ...photo });
        } else if (kind === 'video') {
          const refused = tooLarge(file.size, limits?.video);
          if (refused) throw refused;
          const video = await prepareVideo(file);
          if (!video) {
            showToast(t('chat.videoUnreadable'));
            continue;
          }
          await handle.sendMedia({ kind: 'video', ...video });
        } else {
          const refused = tooLarge(file.size, limits?.file);
          if (refused) throw refused;
          await handle.sendMedia({ kind: 'file', blob: file, name: file.name });
        }
        onQueued();
      } catch (error) {
        toastFailure(error);
      }
    }
  };

  const sendVoice = (recording: Recording) => {
    if (!handle) return;
    const refused = tooLarge(recording.blob.size, limits?.voice);
    if (refused) return toastFailure(refused);
    handle
      .sendMedia({ kind: 'voice', ...recording })
      .then(onQueued)
      .catch(toastFailure);
  };

  const canDrop = allowed.includes('image') || allowed.includes('file');
  /** Files dropped anywhere on the conversation are sent as they would be pasted. */
  const dropZone = canDrop
    ? {
        onDragOver: (event: DragEvent) => {
          if (!event.dataTransfer.types.includes('Files')) return;
          event.preventDefault();
          setDragging(true);
        },
        onDragLeave: (event: DragEvent) => {
          if (event.currentTarget === event.target) setDragging(false);
        },
        onDrop: (event: DragEvent) => {
          setDragging(false);
          const files = [...event.dataTransfer.files];
          if (files.length === 0) return;
          event.preventDefault();
          const kind = pastedKind(files, allowed);
          if (kind) void sendFiles(kind, files);
        },
      }
    : {};

  return {
    sendFiles: (kind: MediaShareKind, files: File[]) => void sendFiles(kind, files),
    sendVoice,
    dropZone,
    dragging,
  };
}
