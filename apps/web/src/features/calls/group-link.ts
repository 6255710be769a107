import type { Call } from '@teltlk/protocol';
import type { CallsClient } from '@teltlk/im-sdk';
import { joinGroupCall } from './janus';
import type { MediaEvents, MediaLink } from './peer-link';

/**
 * A group call's media through the SFU: this person's way into the room (POST
 * /calls/:id/sfu, once they joined the call) and the ICE servers, then the VideoRoom
 * client, its events told to the call's session in the session's words.
 */
export async function openJanusLink(input: {
  call: Call;
  calls: CallsClient;
  local: MediaStream;
  events: MediaEvents;
}): Promise<MediaLink> {
  const { call, calls, local, events } = input;
  const [join, ice] = await Promise.all([calls.sfu(call.id), calls.iceServers()]);
  const self = join.display;
  const group = await joinGroupCall({
    join,
    localStream: local,
    iceServers: ice.iceServers,
    onEvent: (event) => {
      switch (event.type) {
        case 'participant':
          events.remote(event.userId, event.stream);
          return;
        case 'left':
          events.remoteGone(event.userId);
          return;
        case 'talking':
          if (event.userId !== self) events.talking?.(event.userId, event.talking);
          return;
        case 'connection':
          if (event.state === 'lost') events.lost();
          else events.flowing();
          return;
        case 'failed':
          // The server ends the call as failed if the media does not come back.
          events.lost();
          return;
        case 'media':
          return;
      }
    },
  });
  return {
    replaceVideo: async (track) => {
      if (track) await group.replaceVideoTrack(track);
      else await group.setVideoEnabled(false);
    },
    setAudio: (on) => group.setAudioEnabled(on),
    setVideo: (on) => group.setVideoEnabled(on),
    restartIce: () => void group.restartIce().catch(() => undefined),
    stats: () => Promise.resolve(null),
    close: () => void group.leave().catch(() => undefined),
  };
}
