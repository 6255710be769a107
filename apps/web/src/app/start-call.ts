import type { CallMedia } from '@teltlk/protocol';

/** Starts a call in a chat: the signed-in shell's call controller, once it is mounted. */
type CallStarter = (conversationId: string, media: CallMedia) => void;

let starter: CallStarter | null = null;

/** The call controller registers itself here while it is mounted; the return undoes it. */
export function setCallStarter(next: CallStarter): () => void {
  starter = next;
  return () => {
    if (starter === next) starter = null;
  };
}

/**
 * Calls the other person of a one-to-one chat, or the members of a group (a group's running
 * call is joined instead). False when no controller is mounted (signed out).
 */
export function startCall(conversationId: string, media: CallMedia): boolean {
  if (!starter) return false;
  starter(conversationId, media);
  return true;
}
