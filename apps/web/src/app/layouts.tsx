import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { stepUpGate } from '../api/step-up-gate';
import { preloadFeedback } from '../ui/feedback-loader';
import { PageSpinner } from '../ui/spinner';
import { useSignedIn } from './guards';
import { PageLoadBar } from './page-loads';
import { ScreenFrame } from './wide-split';
import '../ui/list.css';
import '../ui/empty-state.css';

const SessionServices = lazy(() =>
  import('./signed-in').then((module) => ({ default: module.SessionServices })),
);

const StepUpSheet = lazy(() =>
  import('../features/security/step-up-sheet').then((module) => ({
    default: module.StepUpSheet,
  })),
);

/** The step-up sheet while a call waits for the person to prove it is them (its chunk then). */
function StepUpHost() {
  const request = useSyncExternalStore(stepUpGate.subscribe, stepUpGate.getSnapshot);
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <StepUpSheet request={request} onDone={settleStepUp} />
    </Suspense>
  );
}

function settleStepUp(proven: boolean): void {
  stepUpGate.settle(proven);
}

/** Commits only with the first page (same Suspense boundary), then readies Toast and Dialog. */
function PreloadFeedback() {
  useEffect(preloadFeedback, []);
  return null;
}

/**
 * Asks the server whether this copy may go on (maintenance, too old) a few seconds in,
 * and now and then after; never in the way of the first screen.
 */
function useVersionChecks(): void {
  const navigate = useNavigate();
  useEffect(() => {
    let stop = () => {};
    let stopped = false;
    const timer = window.setTimeout(() => {
      void import('./version-check').then(({ startVersionChecks }) => {
        if (!stopped) stop = startVersionChecks((path) => void navigate(path));
      });
    }, VERSION_CHECK_DELAY_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stop();
    };
  }, [navigate]);
}

const VERSION_CHECK_DELAY_MS = 3_000;

/**
 * The app column: capped at 600 px and centred on wide screens; a chat beside the chat list
 * on wider ones, and a desktop's layout on the widest (ScreenFrame).
 */
export function AppLayout() {
  const signedIn = useSignedIn();
  useVersionChecks();
  return (
    <div className="tt-app">
      <PageLoadBar />
      <ScreenFrame>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
          <PreloadFeedback />
        </Suspense>
      </ScreenFrame>
      <ScrollRestoration />
      {signedIn ? (
        <Suspense fallback={null}>
          <SessionServices />
        </Suspense>
      ) : null}
      {signedIn ? <StepUpHost /> : null}
    </div>
  );
}
