import { lazy, Suspense, type ReactNode } from 'react';
import { PageSpinner } from '../ui/spinner';
import { useSignedIn } from './guards';
import { useScreen } from './screen';

// Only a wide screen downloads it: a phone's first screen goes without.
const WideFrame = lazy(() =>
  import('./wide-frame').then(({ WideFrame }) => ({ default: WideFrame })),
);

/**
 * The page's frame: on a phone (or signed out), the page alone; on a wide screen, the
 * chat list beside a chat, and on a desktop the navigation rail too (wide-frame.tsx).
 */
export function ScreenFrame({ children }: { children: ReactNode }) {
  const screen = useScreen();
  const signedIn = useSignedIn();
  if (screen === 'phone' || !signedIn) return children;
  return (
    <Suspense fallback={<PageSpinner />}>
      <WideFrame desktop={screen === 'desktop'}>{children}</WideFrame>
    </Suspense>
  );
}
