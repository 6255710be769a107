import type { EngineError } from '@teltlk/im-sdk';
import { useEffect, useState } from 'react';
import { useConnectionTrouble, useEngine, useEngineSnapshot } from '../../app/engine';
import { ConnectionNotice } from './connection-notice';

const NO_ERRORS: readonly EngineError[] = [];
/** How long the socket may fail to connect before the screen says it timed out. */
const CONNECTION_TIMEOUT_MS = 20_000;

/**
 * 'The current network connection is poor' while the socket is down, once the first
 * attempt has ended (not during the first connect after opening the app); otherwise the
 * engine's background failure, if any (chats not updated, or not saved on this device),
 * with a button to try again. `inline` sits in the page's flow (chat page); otherwise it
 * floats under the header.
 */
export function ConnectionBanner({ inline = false }: { inline?: boolean }) {
  const offline = useConnectionTrouble();
  const errors = useEngineSnapshot()?.errors ?? NO_ERRORS;
  const engine = useEngine();
  const [timedOut, setTimedOut] = useState(false);
  // The socket could not connect for a while: the spec's message, the screen a button.
  useEffect(() => {
    setTimedOut(false);
    if (!offline) return;
    const timer = window.setTimeout(() => setTimedOut(true), CONNECTION_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [offline]);
  return (
    <ConnectionNotice
      inline={inline}
      offline={offline}
      errors={errors}
      timedOut={timedOut}
      onReconnect={() => {
        setTimedOut(false);
        engine?.reconnectNow();
        // Still down after another try: the message comes back.
        window.setTimeout(() => setTimedOut(true), CONNECTION_TIMEOUT_MS);
      }}
    />
  );
}
