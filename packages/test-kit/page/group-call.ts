import {
  joinGroupCall,
  JanusError,
  type GroupCall,
  type GroupCallEvent,
} from '../../../apps/web/src/features/calls/janus/index';
import type { PageJoin, PageJoinError, PageReceived, PageSeen } from '../src/group-call-types';

/**
 * A page of one person in a group call, for the browser tests and the benchmarks: the web
 * app's Janus client (bundled by group-call-page.ts) joined with what the driver passes
 * in, every event it hears written down, and the bytes received from each participant
 * read from the PeerConnections' statistics. The driver calls `window.groupCallPage`.
 */

const peerConnections: RTCPeerConnection[] = [];

/** The client's PeerConnections, kept to read their statistics. */
class WatchedPeerConnection extends RTCPeerConnection {
  constructor(configuration?: RTCConfiguration) {
    super(configuration);
    peerConnections.push(this);
  }
}

const seen: PageSeen = {
  participants: {},
  left: [],
  talking: {},
  talks: {},
  connection: [],
  failed: null,
  log: [],
};
const streams = new Map<string, MediaStream>();
let call: GroupCall | null = null;
let local: MediaStream | null = null;
let tone: { context: AudioContext; gain: GainNode } | null = null;

function hear(event: GroupCallEvent): void {
  seen.log.push(
    event.type === 'failed'
      ? `failed ${event.error.message}`
      : `${event.type} ${JSON.stringify({ ...event, type: undefined, stream: undefined })}`,
  );
  switch (event.type) {
    case 'participant':
      streams.set(event.userId, event.stream);
      seen.participants[event.userId] = {
        audio: event.audio,
        video: event.video,
        audioTracks: event.stream.getAudioTracks().length,
        videoTracks: event.stream.getVideoTracks().length,
      };
      return;
    case 'media': {
      const known = seen.participants[event.userId];
      if (known) Object.assign(known, { audio: event.audio, video: event.video });
      return;
    }
    case 'left':
      streams.delete(event.userId);
      delete seen.participants[event.userId];
      seen.left.push(event.userId);
      return;
    case 'talking':
      seen.talking[event.userId] = event.talking;
      if (event.talking) seen.talks[event.userId] = (seen.talks[event.userId] ?? 0) + 1;
      return;
    case 'connection':
      seen.connection.push(event.state);
      return;
    case 'failed':
      seen.failed = event.error.message;
  }
}

/** A steady 440 Hz tone, silent until tone(true): something for talk detection to hear. */
function toneTrack(): MediaStreamTrack {
  const context = new AudioContext();
  const oscillator = context.createOscillator();
  oscillator.frequency.value = 440;
  const gain = context.createGain();
  gain.gain.value = 0;
  tone = { context, gain };
  const destination = context.createMediaStreamDestination();
  oscillator.connect(gain).connect(destination);
  oscillator.start();
  const [track] = destination.stream.getAudioTracks();
  if (!track) throw new Error('no tone track');
  return track;
}

async function localStream(input: PageJoin): Promise<MediaStream> {
  const captured = await navigator.mediaDevices.getUserMedia({
    audio: input.audio === 'microphone',
    video: input.video ? { ...input.video } : false,
  });
  if (input.audio === 'tone') captured.addTrack(toneTrack());
  return captured;
}

/** What a call left behind: its local capture stopped, what was heard forgotten. */
async function forget(): Promise<void> {
  for (const track of local?.getTracks() ?? []) track.stop();
  local = null;
  await tone?.context.close();
  tone = null;
  streams.clear();
  Object.assign(seen, {
    participants: {},
    left: [],
    talking: {},
    talks: {},
    connection: [],
    failed: null,
    log: [],
  });
}

const api = {
  /** Joins and publishes (after leave(), again, with everything heard before forgotten). */
  async join(input: PageJoin): Promise<PageJoinError | null> {
    await forget();
    try {
      local = await localStream(input);
      call = await joinGroupCall({
        join: input.way,
        localStream: local,
        iceServers: input.iceServers,
        onEvent: hear,
        RTCPeerConnection: WatchedPeerConnection,
      });
      return null;
    } catch (error) {
      const code = error instanceof JanusError ? error.code : null;
      return { code, message: (error as Error).message };
    }
  },

  seen(): PageSeen {
    return seen;
  },

  /** Bytes each participant's tracks have received, from the inbound RTP statistics. */
  async received(): Promise<PageReceived> {
    const owners = new Map<string, string>();
    for (const [userId, stream] of streams) {
      for (const track of stream.getTracks()) owners.set(track.id, userId);
    }
    const received: PageReceived = {};
    for (const pc of peerConnections) {
      if (pc.connectionState === 'closed') continue;
      for (const report of (await pc.getStats()).values() as IterableIterator<RTCStats>) {
        if (report.type !== 'inbound-rtp') continue;
        const inbound = report as RTCInboundRtpStreamStats;
        const owner = owners.get(inbound.trackIdentifier);
        if (!owner || (inbound.kind !== 'audio' && inbound.kind !== 'video')) continue;
        const bytes = (received[owner] ??= { audio: 0, video: 0 });
        bytes[inbound.kind] += inbound.bytesReceived ?? 0;
      }
    }
    return received;
  },

  async setAudio(on: boolean): Promise<void> {
    await call?.setAudioEnabled(on);
  },

  async setVideo(on: boolean): Promise<void> {
    await call?.setVideoEnabled(on);
  },

  async restartIce(): Promise<void> {
    await call?.restartIce();
  },

  /** The tone on (a loud steady note) or off (silence). */
  tone(on: boolean): void {
    if (tone) tone.gain.gain.value = on ? 0.5 : 0;
  },

  /** Leaves the call and stops the capture. */
  async leave(): Promise<void> {
    await call?.leave();
    call = null;
    for (const track of local?.getTracks() ?? []) track.stop();
  },

  /**
   * One call frame over the server's socket, as the app sends it: authenticated, sent
   * with a rid, answered by the call as it now stands (or the error, thrown). The socket
   * stays open, as the app's does: a device whose sockets all close is taken as gone from
   * its calls.
   */
  async frame(wsUrl: string, token: string, frame: Record<string, unknown>): Promise<unknown> {
    const socket = await openSocket(wsUrl, token);
    const rid = `page-${Math.random().toString(36).slice(2)}`;
    return new Promise((resolve, reject) => {
      const answered = ({ data }: MessageEvent) => {
        const message = JSON.parse(String(data)) as {
          t: string;
          rid?: string;
          call?: unknown;
          error?: { code: string };
        };
        if (message.rid !== rid) return;
        socket.removeEventListener('message', answered);
        if (message.t === 'call') resolve(message.call);
        else reject(new Error(`refused: ${message.error?.code ?? message.t}`));
      };
      socket.addEventListener('message', answered);
      socket.send(JSON.stringify({ ...frame, rid }));
    });
  },
};

/** The page's socket to the server, one per address and token, open once authenticated. */
const sockets = new Map<string, Promise<WebSocket>>();

function openSocket(wsUrl: string, token: string): Promise<WebSocket> {
  const key = `${wsUrl} ${token}`;
  let opened = sockets.get(key);
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const socket = new WebSocket(wsUrl);
      socket.onopen = () => socket.send(JSON.stringify({ t: 'auth', token }));
      socket.onerror = () => reject(new Error('the socket failed'));
      socket.addEventListener('message', ({ data }) => {
        if ((JSON.parse(String(data)) as { t: string }).t === 'hello') resolve(socket);
      });
    });
    sockets.set(key, opened);
  }
  return opened;
}

export type GroupCallPageApi = typeof api;

declare global {
  interface Window {
    groupCallPage: GroupCallPageApi;
  }
}

window.groupCallPage = api;
