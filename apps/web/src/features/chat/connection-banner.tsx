import type { EngineError } from '@teltlk/im-sdk';
import { useConnectionTrouble, useEngineSnapshot } from '../../app/engine';
import { ConnectionNotice } from './connection-notice';

const NO_ERRORS: readonly EngineError[] = [];

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
  return <ConnectionNotice inline={inline} offline={offline} errors={errors} />;
}
