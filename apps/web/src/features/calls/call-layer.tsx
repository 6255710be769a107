import type { Call, CallMedia } from '@teltlk/protocol';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useCalls, useEngine, useSelfId } from '../../app/engine';
import type { CallRequest } from './call-screens';
import { setCallStarter } from '../../app/start-call';

const CallScreens = lazy(() =>
  import('./call-screens').then((module) => ({ default: module.CallScreens })),
);

/** A call that concerns this device: it rings here, or this person is in it. */
function concerns(call: Call, selfId: string): boolean {
  return (
    call.state !== 'ended' &&
    call.participants.some(
      (p) => p.userId === selfId && (p.state === 'ringing' || p.state === 'joined'),
    )
  );
}

/**
 * The calls' place in the signed-in shell: it answers `startCall`, and the first call
 * that rings or starts loads the call screens (their code and texts), which stay.
 */
export function CallLayer() {
  const engine = useEngine();
  const selfId = useSelfId();
  const calls = useCalls();
  const [request, setRequest] = useState<CallRequest | null>(null);
  const [loaded, setLoaded] = useState(false);
  useEffect(
    () =>
      setCallStarter((conversationId: string, media: CallMedia) =>
        setRequest({ conversationId, media, key: Date.now() + Math.random() }),
      ),
    [],
  );
  const needed = request !== null || (selfId !== null && calls.some((c) => concerns(c, selfId)));
  useEffect(() => {
    if (needed) setLoaded(true);
  }, [needed]);
  if (!engine || !selfId || !(loaded || needed)) return null;
  return (
    <Suspense fallback={null}>
      <CallScreens engine={engine} selfId={selfId} request={request} />
    </Suspense>
  );
}
