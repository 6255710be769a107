import {
  JanusError,
  NO_SUCH_FEED,
  subscribedStreamsOf,
  type JanusMessage,
  type SubscribedStream,
} from './api';
import type { JanusHandle, JanusSession } from './session';

export const VIDEOROOM = 'janus.plugin.videoroom';

export interface SubscriberOptions {
  session: JanusSession;
  room: number;
  /** The publisher's private id: the room lets only its participants subscribe. */
  privateId: number;
  createPeerConnection: () => RTCPeerConnection;
  /** After each negotiation: the tracks each subscribed publisher now arrives on. */
  onTracks: (feed: number, tracks: MediaStreamTrack[]) => void;
  onFailed: (error: JanusError) => void;
}

/**
 * Everyone else's media in one subscriber handle with one PeerConnection: a Janus 1.x
 * multistream subscription, which arrivals extend (`subscribe`) and departures shrink
 * (`unsubscribe`), each a renegotiation Janus offers and this side answers (`start`).
 *
 * One handle rather than one per publisher: in a call of n people Janus then keeps n
 * subscriber PeerConnections instead of n·(n−1) (for 8 people, 8 instead of 56), each
 * with its own ICE checks, DTLS and RTCP; the browser keeps two PeerConnections whatever
 * the call's size; and Janus itself orders the renegotiations (an update asked for while
 * one is under way is postponed and merged into the next offer). Requests go one after
 * another from here, and offers are answered one after another in the order they came.
 */
export class Subscriber {
  private handle: JanusHandle | null = null;
  private pc: RTCPeerConnection | null = null;
  /** The subscription's m-lines as Janus last described them. */
  private streams: SubscribedStream[] = [];
  /** Publishers to receive, and those the subscription has. */
  private readonly wanted = new Set<number>();
  private readonly subscribed = new Set<number>();
  private requests: Promise<void> = Promise.resolve();
  private negotiations: Promise<void> = Promise.resolve();
  private restarting = false;
  private closed = false;

  constructor(private readonly options: SubscriberOptions) {}

  subscribe(feed: number): void {
    this.wanted.add(feed);
    this.enqueue(() => this.addWanted());
  }

  unsubscribe(feed: number): void {
    this.wanted.delete(feed);
    this.enqueue(async () => {
      if (!this.handle || !this.subscribed.delete(feed)) return;
      // Janus has usually dropped a departed publisher's streams itself (and offered the
      // smaller subscription); then this changes nothing.
      await this.handle
        .request({ request: 'unsubscribe', streams: [{ feed }] })
        .catch(() => undefined);
    });
  }

  /** Asks Janus for an offer with new ICE credentials (`configure` with `restart`). */
  async restartIce(): Promise<void> {
    if (!this.handle || this.closed) return;
    await this.handle.request({ request: 'configure', restart: true });
  }

  close(): Promise<void> {
    this.closed = true;
    this.pc?.close();
    return this.handle?.detach() ?? Promise.resolve();
  }

  private enqueue(request: () => Promise<void>): void {
    this.requests = this.requests.then(async () => {
      if (this.closed) return;
      try {
        await request();
      } catch (error) {
        this.fail(error);
      }
    });
  }

  /** Subscribes to the publishers wanted and not yet subscribed, all in one request. */
  private async addWanted(): Promise<void> {
    const feeds = [...this.wanted].filter((feed) => !this.subscribed.has(feed));
    if (feeds.length === 0) return;
    try {
      await this.request(feeds);
    } catch (error) {
      // A publisher left meanwhile (its departure is on its way): the others one by one.
      if (!(error instanceof JanusError && error.code === NO_SUCH_FEED)) throw error;
      if (feeds.length === 1) return;
      for (const feed of feeds) {
        if (!this.wanted.has(feed) || this.subscribed.has(feed)) continue;
        await this.request([feed]).catch((single: unknown) => {
          if (!(single instanceof JanusError && single.code === NO_SUCH_FEED)) throw single;
        });
      }
      return;
    }
  }

  private async request(feeds: number[]): Promise<void> {
    const streams = feeds.map((feed) => ({ feed }));
    if (this.handle) {
      await this.handle.request({ request: 'subscribe', streams });
    } else {
      const handle = await this.options.session.attach(VIDEOROOM, (event) => this.hear(event));
      this.handle = handle;
      try {
        await handle.request({
          request: 'join',
          ptype: 'subscriber',
          room: this.options.room,
          private_id: this.options.privateId,
          streams,
        });
      } catch (error) {
        this.handle = null;
        await handle.detach();
        throw error;
      }
    }
    for (const feed of feeds) this.subscribed.add(feed);
  }

  private hear(event: JanusMessage): void {
    if (this.closed) return;
    if (event.janus === 'hangup') {
      this.fail(new JanusError(`the SFU closed the subscription: ${event.reason ?? 'hangup'}`));
      return;
    }
    const data = event.plugindata?.data;
    if (event.janus !== 'event' || !data || typeof data.error_code === 'number') return;
    const streams = subscribedStreamsOf(data);
    if (event.jsep?.type === 'offer') this.answer(event.jsep, streams);
    else if (streams) {
      this.negotiations = this.negotiations.then(() => this.report(streams));
    }
  }

  /** Answers an offer of Janus, after every earlier one. */
  private answer(offer: RTCSessionDescriptionInit, streams: SubscribedStream[] | null): void {
    this.negotiations = this.negotiations.then(async () => {
      if (this.closed || !this.handle) return;
      try {
        const pc = (this.pc ??= this.peerConnection());
        await pc.setRemoteDescription(offer);
        await pc.setLocalDescription(await pc.createAnswer());
        this.report(streams ?? this.streams);
        const answer = pc.localDescription;
        if (!answer) throw new JanusError('no answer to the offer');
        await this.handle.request({ request: 'start' }, { type: answer.type, sdp: answer.sdp });
      } catch (error) {
        this.fail(error);
      }
    });
  }

  private peerConnection(): RTCPeerConnection {
    const pc = this.options.createPeerConnection();
    pc.onicecandidate = ({ candidate }) => {
      if (!candidate) this.handle?.trickle(null);
      else if (candidate.candidate) this.handle?.trickle(candidate.toJSON());
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'connected') this.restarting = false;
      if (pc.connectionState !== 'failed' || this.closed) return;
      // One ICE restart; failing again after it, the call's media is lost.
      if (this.restarting) {
        this.fail(new JanusError('ICE failed receiving the call'));
        return;
      }
      this.restarting = true;
      this.restartIce().catch((error: unknown) => this.fail(error));
    };
    return pc;
  }

  /** Tells, for each publisher subscribed to, the tracks of the m-lines that carry it now. */
  private report(streams: SubscribedStream[]): void {
    this.streams = streams;
    const pc = this.pc;
    if (!pc || this.closed) return;
    const byMid = new Map(pc.getTransceivers().map((t) => [t.mid, t.receiver.track]));
    const tracks = new Map<number, MediaStreamTrack[]>();
    for (const stream of streams) {
      const track = byMid.get(stream.mid);
      if (!stream.active || stream.feed_id === undefined || stream.type === 'data' || !track)
        continue;
      tracks.set(stream.feed_id, [...(tracks.get(stream.feed_id) ?? []), track]);
    }
    // The publishers asked for too: the answer to a request may be read after its offer.
    for (const feed of new Set([...this.subscribed, ...this.wanted, ...tracks.keys()]))
      this.options.onTracks(feed, tracks.get(feed) ?? []);
  }

  private fail(error: unknown): void {
    if (this.closed) return;
    this.options.onFailed(
      error instanceof JanusError ? error : new JanusError((error as Error).message),
    );
  }
}
