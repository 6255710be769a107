import { useSyncExternalStore } from 'react';
import { useSignedIn } from './guards';

/** Wide enough for the chat list beside a chat, in a frame of the spec's 960 px maximum. */
const WIDE = '(min-width: 960px)';
/** A desktop: a navigation rail, and the chat list beside the open chat across the window. */
const DESKTOP = '(min-width: 1200px)';

export type Screen = 'phone' | 'wide' | 'desktop';

function subscribe(listener: () => void): () => void {
  const queries = [window.matchMedia(WIDE), window.matchMedia(DESKTOP)];
  for (const query of queries) query.addEventListener('change', listener);
  return () => {
    for (const query of queries) query.removeEventListener('change', listener);
  };
}

function screenNow(): Screen {
  if (window.matchMedia(DESKTOP).matches) return 'desktop';
  return window.matchMedia(WIDE).matches ? 'wide' : 'phone';
}

/** The layout the window's width calls for (wide-split.tsx), following it as it changes. */
export function useScreen(): Screen {
  return useSyncExternalStore(subscribe, screenNow, () => 'phone');
}

/** Whether the desktop layout shows: a screen wide enough, and someone signed in. */
export function useDesktop(): boolean {
  const screen = useScreen();
  const signedIn = useSignedIn();
  return screen === 'desktop' && signedIn;
}
