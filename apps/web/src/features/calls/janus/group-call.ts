import type { SfuJoinResult } from '@teltlk/protocol';
import {
  idOf,
  JanusError,
  MEDIA_OFF,
  MEDIA_ON,
  mediaOf,
  publishersOf,
  type JanusMessage,
  type PluginData,
  type Publisher,
} from './api';
import { JanusSession, type JanusHandle } from './session';
import { Subscriber, VIDEOROOM } from './subscriber';

/**
 * A group call's media in the browser: this device publishes its microphone (and camera)
 * to the call's room on Janus's VideoRoom and receives everyone else's, speaking Janus's
 * HTTP API itself (session.ts). The server made the room and handed this person their way
 * in (POST /calls/:id/sfu: the room, a join token of the room's `allowed` list, the
 * display name, which is their user id).
 */

/** What happens in the call, as the call screen hears it. */
export type GroupCallEvent =
  /** Someone's media arrived, or their tracks changed: `stream` holds them (same object). */
  | { type: 'participant'; userId: string; stream: MediaStream; audio: boolean; video: boolean }
  /** Someone turned their microphone or camera on or off. */
  | { type: 'media'; userId: string; audio: boolean; video: boolean }
  | { type: 'left'; userId: string }
  /** Someone (this person too) started or stopped talking, by the room's audio levels. */
  | { type: 'talking'; userId: string; talking: boolean }
  /**
   * This device's media reached the SFU (`connected`), stopped flowing (`lost`), or flows
   * again (`restored`): what the call's `callMedia` frames report.
   */
  | { type: 'connection'; state: 'connected' | 'lost' | 'restored' }
  /** The call's media cannot go on (the session is gone, ICE failed, the room closed). */
  | { type: 'failed'; error: JanusError };

export interface GroupCallOptions {
  join: SfuJoinResult;
  /** Audio, or audio and video: what this device sends. Stays the caller's to stop. */
  localStream: MediaStream;
  /** STUN and TURN as GET /calls/ice-servers hands them out. */
  iceServers: RTCIceServer[];
  onEvent: (event: GroupCallEvent) => void;
  fetch?: typeof fetch;
  RTCPeerConnection?: typeof RTCPeerConnection;
  /** Makes the stream a participant's tracks are gathered in. */
  createStream?: () => MediaStream;
}

/** Someone else in the room, as this device knows them. */
interface Remote {
  userId: string;
  stream: MediaStream;
  audio: boolean;
  video: boolean;
  talking: boolean;
  /** Whether the call screen has heard of them (a `participant` event). */
  announced: boolean;
}

/**
 * Joins the room as a publisher, publishes the local tracks and subscribes to everyone
 * already there; resolves once this device's offer is answered. Rejects with a
 * JanusError if Janus refuses (433: the token is not in the room's list; 426: no such
 * room), leaving nothing open.
 */
export async function joinGroupCall(options: GroupCallOptions): Promise<GroupCall> {
  const scheme = new URL(options.join.url).protocol;
  if (scheme !== 'http:' && scheme !== 'https:') {
    throw new JanusError(`Janus at ${scheme} cannot be reached: this client speaks its HTTP API`);
  }
  const call = new GroupCall(options);
  try {
    await call.start();
  } catch (error) {
    await call.leave();
    throw error;
  }
  return call;
}

export class GroupCall {
  private session: JanusSession | null = null;
  private handle: JanusHandle | null = null;
  private pc: RTCPeerConnection | null = null;
  private subscriber: Subscriber | null = null;
  private myId: number | null = null;
  /** Everyone else publishing in the room, by their publisher id. */
  private readonly remotes = new Map<number, Remote>();
  /** A person's newest publisher id: a device joining again replaces its old one. */
  private readonly feedOf = new Map<string, number>();
  private audio: RTCRtpTransceiver | null = null;
  private video: RTCRtpTransceiver | null = null;
  private audioOn = true;
  private videoOn = true;
  private talking = false;
  private connection: 'new' | 'connected' | 'lost' = 'new';
  private restarting = false;
  private publisherRestart: Promise<void> | null = null;
  private ended = false;
  private failed = false;

  constructor(private readonly options: GroupCallOptions) {}

  async start(): Promise<void> {
    const { join, fetch: fetcher } = this.options;
    this.session = await JanusSession.create({
      url: join.url,
      fetch: fetcher ?? fetch,
      onLost: (error) => this.fail(error),
    });
    this.handle = await this.session.attach(VIDEOROOM, (event) => this.hear(event));
    await this.handle.request({
      request: 'join',
      ptype: 'publisher',
      room: join.room,
      token: join.token,
      display: join.display,
    });
    await this.publish();
  }

  /** Microphone on or off: the track, what Janus relays, and what the others are told. */
  async setAudioEnabled(on: boolean): Promise<void> {
    this.audioOn = on;
    // Janus measures no levels of audio it does not relay: no `stopped-talking` follows.
    if (!on && this.talking) {
      this.talking = false;
      this.emit({ type: 'talking', userId: this.options.join.display, talking: false });
    }
    await this.configure(this.audio, on);
  }

  /** Camera on or off; a call without video has nothing to switch. */
  async setVideoEnabled(on: boolean): Promise<void> {
    this.videoOn = on;
    await this.configure(this.video, on);
  }

  /** Sends another camera, or the screen, in place of the video being sent. */
  async replaceVideoTrack(track: MediaStreamTrack): Promise<void> {
    if (!this.video) throw new JanusError('this call sends no video');
    track.enabled = this.videoOn;
    await this.video.sender.replaceTrack(track);
  }

  /** New ICE credentials for both PeerConnections (after a network change, say). */
  async restartIce(): Promise<void> {
    await Promise.all([this.restartPublisher(), this.subscriber?.restartIce()]);
  }

  /**
   * Leaves the room, detaches, destroys the session and closes the PeerConnections; the
   * local stream is left as it was. Never throws; a second call does nothing.
   */
  async leave(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const handle = this.handle;
    await this.subscriber?.close();
    if (handle && this.session?.isOpen) {
      await handle.request({ request: 'leave' }).catch(() => undefined);
      await handle.detach();
    }
    this.pc?.close();
    await this.session?.destroy();
  }

  private async publish(): Promise<void> {
    const { localStream } = this.options;
    const pc = this.peerConnection();
    this.pc = pc;
    const send = (track: MediaStreamTrack | undefined) =>
      track ? pc.addTransceiver(track, { direction: 'sendonly', streams: [localStream] }) : null;
    this.audio = send(localStream.getAudioTracks()[0]);
    this.video = send(localStream.getVideoTracks()[0]);
    this.audioOn = this.audio?.sender.track?.enabled ?? false;
    this.videoOn = this.video?.sender.track?.enabled ?? false;
    pc.onicecandidate = ({ candidate }) => {
      if (!candidate) this.handle?.trickle(null);
      else if (candidate.candidate) this.handle?.trickle(candidate.toJSON());
    };
    pc.onconnectionstatechange = () => this.watch(pc.connectionState);
    await pc.setLocalDescription(await pc.createOffer());
    await this.negotiate(pc, { request: 'publish', descriptions: this.descriptions() });
  }

  /** Sends this device's current offer with `body`, and takes Janus's answer. */
  private async negotiate(pc: RTCPeerConnection, body: Record<string, unknown>): Promise<void> {
    const offer = pc.localDescription;
    if (!offer || !this.handle) throw new JanusError('nothing to offer');
    const { jsep } = await this.handle.request(body, { type: offer.type, sdp: offer.sdp });
    if (!jsep) throw new JanusError(`no answer to ${String(body.request)}`);
    await pc.setRemoteDescription(jsep);
  }

  /**
   * An ICE restart of the publisher: a new offer with `restart` in its `configure`. One at
   * a time: asked again meanwhile (ICE failed during one asked for), the same restart.
   */
  private restartPublisher(): Promise<void> {
    const pc = this.pc;
    if (!pc || this.ended) return Promise.resolve();
    this.publisherRestart ??= (async () => {
      try {
        await pc.setLocalDescription(await pc.createOffer({ iceRestart: true }));
        await this.negotiate(pc, { request: 'configure', restart: true });
      } finally {
        this.publisherRestart = null;
      }
    })();
    return this.publisherRestart;
  }

  private peerConnection(): RTCPeerConnection {
    const PeerConnection = this.options.RTCPeerConnection ?? RTCPeerConnection;
    // Janus bundles every m-line on one transport: candidates for the others are wasted.
    return new PeerConnection({ iceServers: this.options.iceServers, bundlePolicy: 'max-bundle' });
  }

  /** Each published stream's state as its description, which Janus shows the others. */
  private descriptions(): { mid: string; description: string }[] {
    const described: { mid: string; description: string }[] = [];
    for (const [transceiver, on] of [
      [this.audio, this.audioOn],
      [this.video, this.videoOn],
    ] as const) {
      if (transceiver?.mid)
        described.push({ mid: transceiver.mid, description: on ? MEDIA_ON : MEDIA_OFF });
    }
    return described;
  }

  private async configure(transceiver: RTCRtpTransceiver | null, on: boolean): Promise<void> {
    const track = transceiver?.sender.track;
    if (!transceiver?.mid || !track) return;
    track.enabled = on;
    if (!this.handle || this.ended) return;
    // `send` stops Janus relaying it; the new description tells the others (an SDP-less
    // configure that changes one has Janus announce the publisher again).
    await this.handle.request({
      request: 'configure',
      streams: [{ mid: transceiver.mid, send: on }],
      descriptions: this.descriptions(),
    });
  }

  private watch(state: RTCPeerConnectionState): void {
    if (this.ended) return;
    if (state === 'connected') {
      this.restarting = false;
      if (this.connection !== 'connected') {
        this.emit({
          type: 'connection',
          state: this.connection === 'new' ? 'connected' : 'restored',
        });
        this.connection = 'connected';
      }
      return;
    }
    if ((state === 'disconnected' || state === 'failed') && this.connection === 'connected') {
      this.connection = 'lost';
      this.emit({ type: 'connection', state: 'lost' });
    }
    if (state !== 'failed') return;
    // One ICE restart; failing again after it, the call's media is lost.
    if (this.restarting) {
      this.fail(new JanusError('ICE failed sending the call'));
      return;
    }
    this.restarting = true;
    this.restartPublisher().catch((error: unknown) =>
      this.fail(error instanceof JanusError ? error : new JanusError((error as Error).message)),
    );
  }

  /** Everything Janus says about the publisher handle: the room's comings and goings. */
  private hear(event: JanusMessage): void {
    if (this.ended) return;
    if (event.janus === 'hangup') {
      this.fail(new JanusError(`the SFU closed this device's media: ${event.reason ?? 'hangup'}`));
      return;
    }
    const data = event.plugindata?.data;
    if (event.janus !== 'event' || !data || typeof data.error_code === 'number') return;
    switch (data.videoroom) {
      case 'joined':
        this.joined(data);
        return;
      case 'talking':
      case 'stopped-talking':
        this.heardTalking(idOf(data.id), data.videoroom === 'talking');
        return;
      case 'destroyed':
        this.fail(new JanusError('the call room was closed', 426));
        return;
      case 'event':
        this.arrived(publishersOf(data));
        for (const gone of [idOf(data.leaving), idOf(data.unpublished)]) {
          if (gone !== null) this.departed(gone);
        }
    }
  }

  private joined(data: PluginData): void {
    const id = idOf(data.id);
    const privateId = idOf(data.private_id);
    if (id === null || privateId === null || !this.session) return;
    this.myId = id;
    this.subscriber = new Subscriber({
      session: this.session,
      room: this.options.join.room,
      privateId,
      createPeerConnection: () => this.peerConnection(),
      onTracks: (feed, tracks) => this.received(feed, tracks),
      onFailed: (error) => this.fail(error),
    });
    this.arrived(publishersOf(data));
  }

  /** Publishers announced: new ones subscribed to, known ones' media state updated. */
  private arrived(publishers: Publisher[]): void {
    for (const publisher of publishers) {
      if (publisher.id === this.myId) continue;
      const media = mediaOf(publisher);
      const known = this.remotes.get(publisher.id);
      if (known) {
        if (known.audio === media.audio && known.video === media.video) continue;
        Object.assign(known, media);
        if (!known.announced) continue;
        this.emit({ type: 'media', userId: known.userId, ...media });
        if (!media.audio && known.talking) {
          known.talking = false;
          this.emit({ type: 'talking', userId: known.userId, talking: false });
        }
        continue;
      }
      const userId = publisher.display ?? String(publisher.id);
      const stream = (this.options.createStream ?? (() => new MediaStream()))();
      this.remotes.set(publisher.id, {
        userId,
        stream,
        ...media,
        talking: false,
        announced: false,
      });
      this.feedOf.set(userId, publisher.id);
      this.subscriber?.subscribe(publisher.id);
    }
  }

  private departed(feed: number): void {
    const remote = this.remotes.get(feed);
    if (!remote) return;
    this.remotes.delete(feed);
    this.subscriber?.unsubscribe(feed);
    if (this.feedOf.get(remote.userId) !== feed) return;
    this.feedOf.delete(remote.userId);
    if (remote.announced) this.emit({ type: 'left', userId: remote.userId });
  }

  /** A publisher's tracks after a negotiation: its stream made to hold exactly them. */
  private received(feed: number, tracks: MediaStreamTrack[]): void {
    const remote = this.remotes.get(feed);
    if (!remote || this.feedOf.get(remote.userId) !== feed) return;
    let changed = false;
    for (const track of remote.stream.getTracks()) {
      if (tracks.includes(track)) continue;
      remote.stream.removeTrack(track);
      changed = true;
    }
    for (const track of tracks) {
      if (remote.stream.getTracks().includes(track)) continue;
      remote.stream.addTrack(track);
      changed = true;
    }
    if (tracks.length === 0 || (!changed && remote.announced)) return;
    remote.announced = true;
    const { userId, stream, audio, video } = remote;
    this.emit({ type: 'participant', userId, stream, audio, video });
  }

  private heardTalking(id: number | null, talking: boolean): void {
    if (id === null) return;
    if (id === this.myId) {
      this.talking = talking;
      this.emit({ type: 'talking', userId: this.options.join.display, talking });
      return;
    }
    const remote = this.remotes.get(id);
    if (!remote) return;
    remote.talking = talking;
    if (remote.announced) this.emit({ type: 'talking', userId: remote.userId, talking });
  }

  private fail(error: JanusError): void {
    if (this.ended || this.failed) return;
    this.failed = true;
    this.emit({ type: 'failed', error });
  }

  private emit(event: GroupCallEvent): void {
    if (!this.ended) this.options.onEvent(event);
  }
}
