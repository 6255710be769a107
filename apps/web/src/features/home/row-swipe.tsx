import { SwipeAction, type SwipeActionProps } from 'antd-mobile';
import type { ReactNode } from 'react';

export interface RowSwipeProps {
  actions: NonNullable<SwipeActionProps['rightActions']>;
  children: ReactNode;
}

/**
 * A chat row's swipe actions (pin, mute, delete). Loaded once the list shows, not with
 * it: its gesture and animation libraries are most of the list's code, and the row is
 * already usable without them (a tap opens the chat, a long press opens the same menu).
 */
export function RowSwipe({ actions, children }: RowSwipeProps) {
  return <SwipeAction rightActions={actions}>{children}</SwipeAction>;
}
