import { CloseOutline, LeftOutline, RightOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import { createPortal } from 'react-dom';
import { usePageTexts } from '../../i18n/pages';
import { useMediaAddresses } from '../../api/media-urls';
import { nextZoom, SWIPE_MIN_PX, zoomLimits } from './zoom';

export interface ViewedPhoto {
  id: string;
  name: string;
}

/**
 * The conversation's photos full screen: pinch or wheel to zoom 1–4 (spec), drag to look
 * around a zoomed photo, swipe, the arrow buttons or the arrow keys to go between them,
 * save the one shown. Loaded with the first photo opened.
 */
export default function PhotoViewer({
  photos,
  index,
  onClose,
}: {
  photos: readonly ViewedPhoto[];
  index: number;
  onClose: () => void;
}) {
  const { t } = usePageTexts();
  const addresses = useMediaAddresses(photos.map((photo) => photo.id));
  const [shown, setShown] = useState(index);
  const [zoom, setZoom] = useState(1);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{
    distance: number;
    zoom: number;
    startX: number;
    offset: { x: number; y: number };
  } | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const current = addresses[shown];

  const go = (step: number) => {
    const next = shown + step;
    if (next < 0 || next >= photos.length) return;
    setShown(next);
    setZoom(1);
    setOffset({ x: 0, y: 0 });
  };

  useEffect(() => {
    closeRef.current?.focus();
  }, []);

  // Subscribed once; the handler reads the latest state through the ref (a pinch renders
  // on every move).
  const keys = useRef((_event: KeyboardEvent) => {});
  keys.current = (event) => {
    if (event.key === 'Escape') onClose();
    else if (event.key === 'ArrowLeft') go(-1);
    else if (event.key === 'ArrowRight') go(1);
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => keys.current(event);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const onWheel = (event: WheelEvent) => {
    const next = nextZoom(zoom, event.deltaY < 0 ? 1.25 : 0.8);
    setZoom(next);
    if (next === zoomLimits.min) setOffset({ x: 0, y: 0 });
  };

  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };

  const onPointerDown = (event: PointerEvent) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    gesture.current = { distance: distance(), zoom, startX: event.clientX, offset };
  };

  const onPointerMove = (event: PointerEvent) => {
    const last = pointers.current.get(event.pointerId);
    if (!last || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 2 && gesture.current.distance > 0) {
      setZoom(nextZoom(gesture.current.zoom, distance() / gesture.current.distance));
    } else if (pointers.current.size === 1 && zoom > zoomLimits.min) {
      setOffset((previous) => ({
        x: previous.x + event.clientX - last.x,
        y: previous.y + event.clientY - last.y,
      }));
    }
  };

  const onPointerUp = (event: PointerEvent) => {
    const start = gesture.current;
    pointers.current.delete(event.pointerId);
    if (pointers.current.size > 0) return;
    gesture.current = null;
    // A swipe along an unzoomed photo goes to the next or previous one.
    if (start && zoom === zoomLimits.min) {
      const moved = event.clientX - start.startX;
      if (Math.abs(moved) >= SWIPE_MIN_PX) go(moved < 0 ? 1 : -1);
    }
  };

  return createPortal(
    <div
      className="tt-viewer"
      role="dialog"
      aria-modal="true"
      aria-label={t('chat.viewerTitle', { index: shown + 1, count: photos.length })}
    >
      <div
        className="tt-viewer-stage"
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        {current && current !== 'missing' ? (
          <img
            src={current.url}
            alt={photos[shown]?.name ?? ''}
            draggable={false}
            style={{ transform: `translate(${offset.x}px, ${offset.y}px) scale(${zoom})` }}
          />
        ) : (
          <p className="tt-viewer-missing">
            {current === 'missing' ? t('chat.photoUnavailable') : null}
          </p>
        )}
      </div>
      <div className="tt-viewer-bar">
        <button
          type="button"
          className="tt-icon-button"
          aria-label={t('chat.previousPhoto')}
          disabled={shown === 0}
          onClick={() => go(-1)}
        >
          <LeftOutline aria-hidden />
        </button>
        <span aria-live="polite">
          {t('chat.viewerTitle', { index: shown + 1, count: photos.length })}
        </span>
        <button
          type="button"
          className="tt-icon-button"
          aria-label={t('chat.nextPhoto')}
          disabled={shown === photos.length - 1}
          onClick={() => go(1)}
        >
          <RightOutline aria-hidden />
        </button>
        {current && current !== 'missing' ? (
          <a className="tt-viewer-save" href={current.url} download={photos[shown]?.name}>
            {t('chat.savePhoto')}
          </a>
        ) : null}
        <button
          ref={closeRef}
          type="button"
          className="tt-icon-button"
          aria-label={t('chat.closeViewer')}
          onClick={onClose}
        >
          <CloseOutline aria-hidden />
        </button>
      </div>
    </div>,
    document.body,
  );
}
