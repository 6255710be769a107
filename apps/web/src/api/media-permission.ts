import type { NativePermission, PiClient } from '@teltlk/pi-sdk';
import type { CallMedia } from '@teltlk/protocol';
import { pagePiClient } from './pi';

/** What a call of each media needs of the device. */
const NEEDED: Record<CallMedia, NativePermission[]> = {
  audio: ['microphone'],
  video: ['microphone', 'camera'],
};

/**
 * Whether a call may go on to getUserMedia, as far as the Pi Browser is concerned: there
 * the person answers Pi's own prompt for the microphone (and the camera for video), and
 * a refusal of either is false. Elsewhere, and in a Pi Browser that cannot ask, it is
 * true: the browser's own prompt is then the one that counts. The call screens ask it
 * before they open the microphone or the camera.
 */
export async function ensureMediaPermission(media: CallMedia): Promise<boolean> {
  let client: PiClient;
  try {
    client = await pagePiClient();
  } catch {
    // The server's Pi settings could not be read: getUserMedia still asks the person.
    return true;
  }
  if (!client.inPiBrowser) return true;
  for (const permission of NEEDED[media]) {
    let granted: boolean | null;
    try {
      granted = await client.requestPermission(permission);
    } catch {
      // Pi's SDK did not load or its host did not answer: getUserMedia will tell.
      return true;
    }
    if (granted === false) return false;
  }
  return true;
}
