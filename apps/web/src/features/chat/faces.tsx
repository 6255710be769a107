import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import {
  STICKERS,
  type FaceContent,
  type FavouritesResult,
  type ImageMedia,
  type StickerId,
} from '@teltlk/protocol';
import { useState, type ReactNode } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { api } from '../../api/client';
import { useMediaAddress } from '../../api/media-urls';
import { queryKeys } from '../../api/query-keys';
import { toastFailure } from '../../ui/failure-toast';
import { showToast } from '../../ui/toast';
import { EMOJI } from './emoji';

/** Side of a sticker in a chat, in CSS pixels. */
const STICKER_PX = 120;
/** Side of a sticker in the panel. */
const PANEL_STICKER_PX = 64;

/** Where the web app serves a sticker of its pack. */
export function stickerUrl(id: StickerId): string {
  return `${import.meta.env.BASE_URL}stickers/${id}.svg`;
}

/** A stored photo's thumbnail, by signed address; a grey square while it is asked for. */
export function MediaThumb({
  id,
  size,
  alt,
  className,
}: {
  id: string;
  size: number;
  alt: string;
  className?: string;
}) {
  const address = useMediaAddress(id);
  const source = address && address !== 'missing' ? address.thumb : null;
  return source ? (
    <img src={source} alt={alt} className={className} width={size} height={size} decoding="async" />
  ) : (
    <span
      className={className ? `${className} tt-sticker-pending` : 'tt-sticker-pending'}
      style={{ width: size, height: size }}
      role="img"
      aria-label={alt}
    />
  );
}

/** A sticker in the chat: no bubble, the picture alone, named for screen readers. */
export function StickerBubble({ content }: { content: FaceContent }) {
  const { t } = usePageTexts();
  if (content.sticker) {
    return (
      <img
        className="tt-sticker"
        src={stickerUrl(content.sticker)}
        alt={t(`sticker.${content.sticker}`)}
        width={STICKER_PX}
        height={STICKER_PX}
        decoding="async"
      />
    );
  }
  return content.image ? (
    <span className="tt-sticker">
      <MediaThumb id={content.image.id} size={STICKER_PX} alt={t('chat.favouriteSticker')} />
    </span>
  ) : null;
}

/** The user's favourite stickers (photos kept), newest first. */
export function useFavourites(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.favourites(),
    queryFn: () => api.call(routes.favourites.favourites),
    enabled,
    staleTime: 60_000,
  });
}

/** Keeps a photo as a favourite sticker; the panel's list follows. */
export function useAddFavourite() {
  const { t } = usePageTexts();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mediaId: string) => api.call(routes.favourites.add, { body: { mediaId } }),
    onSuccess: (result: FavouritesResult) => {
      client.setQueryData(queryKeys.favourites(), result);
      showToast(t('chat.stickerAdded'), { icon: 'success' });
    },
    onError: (error) => toastFailure(error),
  });
}

type FaceTab = 'emoji' | 'stickers' | 'favourites';

interface FacePanelProps {
  id: string;
  open: boolean;
  onEmoji: (emoji: string) => void;
  /** Sends a sticker; absent where stickers may not be sent (a group's choice). */
  onSticker?: (face: { sticker: StickerId } | { image: ImageMedia }) => void;
}

/** The panel under the message box: emoji to type, the sticker pack, and favourites. */
export function FacePanel({ id, open, onEmoji, onSticker }: FacePanelProps) {
  const { t } = usePageTexts();
  const [tab, setTab] = useState<FaceTab>('emoji');
  const shown = onSticker ? tab : 'emoji';
  const favourites = useFavourites(open && shown === 'favourites');
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (mediaId: string) => api.call(routes.favourites.remove, { params: { mediaId } }),
    onSuccess: (result: FavouritesResult) => client.setQueryData(queryKeys.favourites(), result),
    onError: (error) => toastFailure(error),
  });

  const tabs: { key: FaceTab; label: string }[] = [
    { key: 'emoji', label: t('chat.emojiTab') },
    { key: 'stickers', label: t('chat.stickersTab') },
    { key: 'favourites', label: t('chat.favouritesTab') },
  ];
  let body: ReactNode;
  if (shown === 'emoji') {
    body = EMOJI.map((emoji) => (
      <button key={emoji} type="button" className="tt-emoji" onClick={() => onEmoji(emoji)}>
        {emoji}
      </button>
    ));
  } else if (shown === 'stickers') {
    body = STICKERS.map((sticker) => (
      <button
        key={sticker}
        type="button"
        className="tt-face-option"
        onClick={() => onSticker?.({ sticker })}
      >
        <img
          src={stickerUrl(sticker)}
          alt={t(`sticker.${sticker}`)}
          width={PANEL_STICKER_PX}
          height={PANEL_STICKER_PX}
          loading="lazy"
        />
      </button>
    ));
  } else {
    const list = favourites.data?.favourites ?? [];
    body =
      favourites.isSuccess && list.length === 0 ? (
        <p className="tt-face-empty">{t('chat.noFavourites')}</p>
      ) : (
        list.map((image, index) => {
          const name = `${t('chat.favouriteSticker')} ${index + 1}`;
          return (
            <span key={image.id} className="tt-face-favourite">
              <button
                type="button"
                className="tt-face-option"
                onClick={() => onSticker?.({ image })}
              >
                <MediaThumb id={image.id} size={PANEL_STICKER_PX} alt={name} />
              </button>
              <button
                type="button"
                className="tt-face-remove"
                aria-label={t('chat.removeSticker', { name })}
                disabled={remove.isPending}
                onClick={() => remove.mutate(image.id)}
              >
                ×
              </button>
            </span>
          );
        })
      );
  }

  return (
    <div id={id} className="tt-emoji-panel" hidden={!open}>
      {onSticker ? (
        <div className="tt-face-tabs" role="tablist">
          {tabs.map(({ key, label }) => (
            <button
              key={key}
              type="button"
              role="tab"
              aria-selected={shown === key}
              className="tt-face-tab"
              onClick={() => setTab(key)}
            >
              {label}
            </button>
          ))}
        </div>
      ) : null}
      <div
        className={shown === 'emoji' ? 'tt-face-grid tt-face-emoji' : 'tt-face-grid'}
        role={onSticker ? 'tabpanel' : undefined}
      >
        {body}
      </div>
    </div>
  );
}
