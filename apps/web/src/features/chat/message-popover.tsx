import './message-popover.css';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useMediaAddress } from '../../api/media-urls';
import { usePageTexts } from '../../i18n/pages';
import type { MenuAction, MenuTarget, SavedMedia } from './message-menu';

/** Room kept between the menu and the window's edges, and between it and the bubble. */
export const EDGE_PX = 8;
export const GAP_PX = 6;

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface MenuPlace {
  left: number;
  top: number;
  /** Where it went: under the bubble, over it (above), or on it when neither has room. */
  side: 'below' | 'above' | 'over';
}

/**
 * Where a message's menu goes: under its bubble, else above it, else over it at the
 * window's bottom (a bubble taller than the window); lined up with the bubble's outer
 * edge (the right for one's own messages), always inside the window.
 */
export function placeMenu(
  bubble: Box,
  menu: { width: number; height: number },
  window: { width: number; height: number },
  own: boolean,
): MenuPlace {
  const wanted = own ? bubble.left + bubble.width - menu.width : bubble.left;
  const left = Math.max(EDGE_PX, Math.min(wanted, window.width - menu.width - EDGE_PX));
  const bottom = bubble.top + bubble.height;
  if (bottom + GAP_PX + menu.height + EDGE_PX <= window.height) {
    return { left, top: bottom + GAP_PX, side: 'below' };
  }
  if (bubble.top - GAP_PX - menu.height >= EDGE_PX) {
    return { left, top: bubble.top - GAP_PX - menu.height, side: 'above' };
  }
  const top = Math.max(EDGE_PX, window.height - menu.height - EDGE_PX);
  return { left, top, side: 'over' };
}

function boxOf(element: Element): Box {
  const { left, top, width, height } = element.getBoundingClientRect();
  return { left, top, width, height };
}

/**
 * A message's menu as a popover beside its bubble, the bubble marked while it is open.
 * A menu for the keyboard too: the first entry takes the focus, the arrow keys, Home and
 * End move, Escape or Tab closes it and the focus goes back to where it was.
 */
export function MessagePopover({
  target,
  actions,
  onClose,
}: {
  target: MenuTarget | null;
  actions: readonly MenuAction[];
  onClose: () => void;
}) {
  if (!target || actions.length === 0) return null;
  return (
    <OpenPopover
      key={target.message.clientMsgId}
      target={target}
      actions={actions}
      onClose={onClose}
    />
  );
}

function OpenPopover({
  target,
  actions,
  onClose,
}: {
  target: MenuTarget;
  actions: readonly MenuAction[];
  onClose: () => void;
}) {
  const { t } = usePageTexts();
  const { anchor } = target;
  const menuRef = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<MenuPlace | null>(null);
  // Where the focus was (the bubble's "more" button, or nothing for a long press).
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement && document.activeElement !== document.body
      ? document.activeElement
      : null,
  );
  const latestClose = useRef(onClose);
  useEffect(() => {
    latestClose.current = onClose;
  });

  // The bubble is marked while its menu is open.
  useEffect(() => {
    anchor.setAttribute('data-menu-open', '');
    return () => anchor.removeAttribute('data-menu-open');
  }, [anchor]);

  // Placed beside the bubble before it paints, and again as the chat scrolls or the
  // window changes; a bubble scrolled out of the list takes its menu with it.
  useLayoutEffect(() => {
    let frame = 0;
    const own = anchor.closest('.tt-msg-own') !== null;
    const update = () => {
      frame = 0;
      const menu = menuRef.current;
      if (!menu) return;
      if (!anchor.isConnected) {
        latestClose.current();
        return;
      }
      // Its layout size: the opening animation scales it, which the box would count.
      setPlace(
        placeMenu(
          boxOf(anchor),
          { width: menu.offsetWidth, height: menu.offsetHeight },
          { width: window.innerWidth, height: window.innerHeight },
          own,
        ),
      );
    };
    const later = () => {
      if (frame === 0) frame = window.requestAnimationFrame(update);
    };
    update();
    window.addEventListener('resize', later);
    window.addEventListener('scroll', later, true);
    return () => {
      window.removeEventListener('resize', later);
      window.removeEventListener('scroll', later, true);
      if (frame !== 0) window.cancelAnimationFrame(frame);
    };
  }, [anchor]);

  // The first entry takes the focus; closing gives it back.
  useEffect(() => {
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      const back =
        opener?.isConnected === true
          ? opener
          : anchor.closest('.tt-msg')?.querySelector<HTMLElement>('.tt-msg-more');
      back?.focus({ preventScroll: true });
    };
  }, [anchor, opener]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => {
      event.preventDefault();
      items[(index + items.length) % items.length]?.focus();
    };
    if (event.key === 'ArrowDown') go(at + 1);
    else if (event.key === 'ArrowUp') go(at < 0 ? items.length - 1 : at - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(items.length - 1);
    else if (event.key === ' ' && document.activeElement instanceof HTMLAnchorElement) {
      // A link does not answer Space on its own; every entry of a menu does.
      event.preventDefault();
      document.activeElement.click();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  return createPortal(
    <div className="tt-popover-layer">
      {/* A tap beside the menu closes it, as in other messengers. */}
      <div className="tt-popover-mask" aria-hidden onClick={onClose} />
      <div
        ref={menuRef}
        role="menu"
        aria-label={t('chat.actions')}
        aria-orientation="vertical"
        className="tt-popover"
        data-side={place?.side}
        style={place ? { left: place.left, top: place.top } : { left: 0, top: 0, opacity: 0 }}
        onKeyDown={onKeyDown}
      >
        {actions.map((action) =>
          action.save ? (
            <SaveItem key={action.key} text={action.text} media={action.save} onDone={onClose} />
          ) : (
            <button
              key={action.key}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={action.danger ? 'tt-popover-item tt-popover-danger' : 'tt-popover-item'}
              onClick={() => {
                onClose();
                action.onClick();
              }}
            >
              {action.text}
            </button>
          ),
        )}
      </div>
    </div>,
    document.body,
  );
}

/**
 * Saves a photo, video or file under its name: a link, so the browser downloads it as
 * the user's own act; unavailable until its address is known.
 */
function SaveItem({
  text,
  media,
  onDone,
}: {
  text: string;
  media: SavedMedia;
  onDone: () => void;
}) {
  const address = useMediaAddress(media.mediaId);
  if (!address || address === 'missing') {
    return (
      <span role="menuitem" tabIndex={-1} aria-disabled="true" className="tt-popover-item">
        {text}
      </span>
    );
  }
  return (
    <a
      role="menuitem"
      tabIndex={-1}
      className="tt-popover-item"
      href={address.url}
      download={media.name}
      target="_blank"
      rel="noopener noreferrer"
      onClick={onDone}
    >
      {text}
    </a>
  );
}
