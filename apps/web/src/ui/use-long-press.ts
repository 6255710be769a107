import { useEffect, useRef, type MouseEvent, type PointerEvent, type TouchEvent } from 'react';

/** How long a press must last to open the actions (spec: 350 ms). */
export const LONG_PRESS_MS = 350;
/** A finger moving farther than this is scrolling or swiping, not pressing. */
const MOVE_TOLERANCE_PX = 10;
/** The click or context menu that follows a long press comes within this time. */
const FOLLOW_UP_MS = 1000;

/**
 * Long press for touch, and the context menu (right click, the menu key, Shift+F10)
 * for mouse and keyboard users. The click that ends a long press is swallowed, so a
 * row that is also a link does not open.
 */
export function useLongPress(onLongPress: () => void, delay = LONG_PRESS_MS) {
  const timer = useRef<number | null>(null);
  const origin = useRef<{ x: number; y: number } | null>(null);
  const firedAt = useRef(0);
  const latest = useRef(onLongPress);
  useEffect(() => {
    latest.current = onLongPress;
  });

  const cancel = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    origin.current = null;
  };
  useEffect(() => cancel, []);

  return {
    onPointerDown: (event: PointerEvent) => {
      firedAt.current = 0;
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      cancel();
      origin.current = { x: event.clientX, y: event.clientY };
      timer.current = window.setTimeout(() => {
        timer.current = null;
        firedAt.current = Date.now();
        latest.current();
      }, delay);
    },
    onPointerMove: (event: PointerEvent) => {
      const start = origin.current;
      if (!start) return;
      if (Math.hypot(event.clientX - start.x, event.clientY - start.y) > MOVE_TOLERANCE_PX) {
        cancel();
      }
    },
    onPointerUp: cancel,
    // The tap a finger ends a long press with would land on whatever opened under it
    // (the sheet's mask, closing it at once); cancelling the touch end suppresses it.
    onTouchEnd: (event: TouchEvent) => {
      if (Date.now() - firedAt.current < FOLLOW_UP_MS && event.cancelable) event.preventDefault();
    },
    onPointerCancel: cancel,
    onPointerLeave: cancel,
    onContextMenu: (event: MouseEvent) => {
      event.preventDefault();
      // Touch browsers send a context menu after a long press too: open only once.
      if (Date.now() - firedAt.current < FOLLOW_UP_MS) return;
      cancel();
      latest.current();
    },
    onClickCapture: (event: MouseEvent) => {
      if (Date.now() - firedAt.current >= FOLLOW_UP_MS) return;
      firedAt.current = 0;
      event.preventDefault();
      event.stopPropagation();
    },
  };
}
