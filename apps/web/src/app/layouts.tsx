import { lazy, Suspense, useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { preloadFeedback } from '../ui/feedback-loader';
import { PageSpinner } from '../ui/spinner';
import { useSignedIn } from './guards';

const SessionServices = lazy(() =>
  import('./signed-in').then((module) => ({ default: module.SessionServices })),
);

/** Commits only with the first page (same Suspense boundary), then readies Toast and Dialog. */
function PreloadFeedback() {
  useEffect(preloadFeedback, []);
  return null;
}

/** The app column: capped at 600 px and centred on wide screens. */
export function AppLayout() {
  const signedIn = useSignedIn();
  return (
    <div className="tt-app">
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
        <PreloadFeedback />
      </Suspense>
      <ScrollRestoration />
      {signedIn ? (
        <Suspense fallback={null}>
          <SessionServices />
        </Suspense>
      ) : null}
    </div>
  );
}
