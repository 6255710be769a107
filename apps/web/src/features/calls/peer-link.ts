import type { CallSignal, IceServersResult } from '@teltlk/protocol';

/** What the media of a call says about itself to the call's session. */
export interface MediaEvents {
  /** A remote person's stream (new, or with a new track). */
  remote(userId: string, stream: MediaStream): void;
  /** A remote person's media left (they hung up, or left a group call). */
  remoteGone(userId: string): void;
  /** Media flows (first time, or again after a loss). */
  flowing(): void;
  /** Media stopped flowing: ICE is being restarted. */
  lost(): void;
  /** Who is speaking in a group call, if the link knows (the SFU says so). */
  talking?(userId: string, talking: boolean): void;
}

/** One call's media: a peer connection (one to one) or an SFU room (group). */
export interface MediaLink {
  /** Replaces the outgoing video (another camera, the screen, or none). */
  replaceVideo(track: MediaStreamTrack | null): Promise<void>;
  /** Tells the others the microphone or camera went off or on (an SFU relays it). */
  setAudio?(on: boolean): Promise<void>;
  setVideo?(on: boolean): Promise<void>;
  /** Starts ICE again (network changed). */
  restartIce(): void;
  /** Round-trip time and packet loss now, for the quality mark; null before media flows. */
  stats(): Promise<LinkStats | null>;
  close(): void;
}

export interface LinkStats {
  /** Seconds. */
  roundTrip: number | null;
  /** Lost packets out of those expected since the last reading, 0..1. */
  loss: number;
  /** Whether the media goes through a TURN relay. */
  relayed: boolean;
}

/** How long media may stay "disconnected" before ICE is restarted. */
export const ICE_RESTART_AFTER_MS = 2_000;

/**
 * One to one: a WebRTC peer connection to the other device, its offers, answers and
 * candidates relayed by our socket. Negotiation follows the "perfect negotiation" pattern:
 * the callee is polite (gives way when offers cross), so either side may renegotiate (an
 * ICE restart after a network change, the screen shared) without glare.
 */
export class PeerLink implements MediaLink {
  private readonly pc: RTCPeerConnection;
  private makingOffer = false;
  /** A first offer and answer went through. */
  private negotiated = false;
  private ignoreOffer = false;
  private closed = false;
  private everConnected = false;
  private isLost = false;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly videoSender: RTCRtpSender | null;
  private remoteStream: MediaStream | null = null;
  private lastLoss: { lost: number; received: number } | null = null;

  constructor(
    private readonly options: {
      ice: IceServersResult;
      local: MediaStream;
      /** The callee: gives way when both sides offer at once. */
      polite: boolean;
      /** The other person's user id (whose stream `remote` reports). */
      peerId: string;
      send(signal: CallSignal): void;
      events: MediaEvents;
      /** Tests and the benchmark build the peer connection their way; default the browser's. */
      RTCPeerConnection?: typeof RTCPeerConnection;
    },
  ) {
    const Peer = options.RTCPeerConnection ?? RTCPeerConnection;
    this.pc = new Peer({
      iceServers: options.ice.iceServers,
      iceTransportPolicy: options.ice.iceTransportPolicy,
    });
    let video: RTCRtpSender | null = null;
    for (const track of options.local.getTracks()) {
      const sender = this.pc.addTrack(track, options.local);
      if (track.kind === 'video') video = sender;
    }
    // A voice call can turn its camera or the screen on later without a new m-line dance.
    this.videoSender = video;
    this.pc.onicecandidate = ({ candidate }) => {
      if (!candidate || this.closed) return;
      options.send({
        type: 'candidate',
        candidate: candidate.candidate,
        sdpMid: candidate.sdpMid,
        sdpMLineIndex: candidate.sdpMLineIndex,
      });
    };
    // The caller makes the first offer; the callee's own tracks ride in its answer, so it
    // offers only to renegotiate later (an ICE restart, a track added).
    this.pc.onnegotiationneeded = () => {
      if (this.options.polite && !this.negotiated) return;
      void this.offer();
    };
    this.pc.ontrack = ({ track, streams }) => {
      const stream = streams[0] ?? (this.remoteStream ??= new MediaStream());
      if (!stream.getTracks().includes(track)) stream.addTrack(track);
      this.remoteStream = stream;
      options.events.remote(options.peerId, stream);
    };
    this.pc.oniceconnectionstatechange = () => this.onIceState();
  }

  /** Applies the other side's signals one at a time, in the order they came. */
  handle(signal: CallSignal): Promise<void> {
    this.inbox = this.inbox.then(() => this.apply(signal));
    return this.inbox;
  }

  private inbox: Promise<void> = Promise.resolve();

  private async apply(signal: CallSignal): Promise<void> {
    if (this.closed) return;
    const { pc } = this;
    try {
      if (signal.type === 'candidate') {
        try {
          await pc.addIceCandidate({
            candidate: signal.candidate,
            sdpMid: signal.sdpMid,
            sdpMLineIndex: signal.sdpMLineIndex,
          });
        } catch (error) {
          // A candidate of an offer this side ignored (crossed offers) is dropped.
          if (!this.ignoreOffer) throw error;
        }
        return;
      }
      const collision =
        signal.type === 'offer' && (this.makingOffer || pc.signalingState !== 'stable');
      this.ignoreOffer = !this.options.polite && collision;
      if (this.ignoreOffer) return;
      await pc.setRemoteDescription({ type: signal.type, sdp: signal.sdp });
      this.negotiated = true;
      if (signal.type === 'offer') {
        await pc.setLocalDescription();
        const answer = pc.localDescription;
        if (answer) this.options.send({ type: 'answer', sdp: answer.sdp });
      }
    } catch {
      // A description that does not apply (a stale one after a restart): ICE recovers,
      // or the call fails after its grace on the server.
    }
  }

  async replaceVideo(track: MediaStreamTrack | null): Promise<void> {
    if (this.videoSender) {
      await this.videoSender.replaceTrack(track);
      return;
    }
    if (track) this.pc.addTrack(track, this.options.local);
  }

  restartIce(): void {
    if (this.closed) return;
    // Both sides may ask: the polite one's offer gives way if they cross.
    this.pc.restartIce();
  }

  async stats(): Promise<LinkStats | null> {
    if (this.closed) return null;
    const report = await this.pc.getStats();
    let roundTrip: number | null = null;
    let relayed = false;
    let lost = 0;
    let received = 0;
    const byId = new Map<string, RTCStats & Record<string, unknown>>();
    report.forEach((entry: RTCStats & Record<string, unknown>) => byId.set(entry.id, entry));
    for (const entry of byId.values()) {
      if (entry.type === 'candidate-pair' && entry.nominated && entry.state === 'succeeded') {
        if (typeof entry.currentRoundTripTime === 'number') roundTrip = entry.currentRoundTripTime;
        const local = byId.get(String(entry.localCandidateId));
        if (local?.candidateType === 'relay') relayed = true;
      }
      if (entry.type === 'inbound-rtp') {
        lost += Number(entry.packetsLost ?? 0);
        received += Number(entry.packetsReceived ?? 0);
      }
    }
    const previous = this.lastLoss ?? { lost: 0, received: 0 };
    this.lastLoss = { lost, received };
    const expected = lost - previous.lost + (received - previous.received);
    const loss = expected > 0 ? Math.max(0, lost - previous.lost) / expected : 0;
    if (!this.everConnected) return null;
    return { roundTrip, loss, relayed };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.pc.close();
  }

  private async offer(): Promise<void> {
    if (this.closed) return;
    try {
      this.makingOffer = true;
      await this.pc.setLocalDescription();
      const offer = this.pc.localDescription;
      if (offer && offer.type === 'offer') this.options.send({ type: 'offer', sdp: offer.sdp });
    } catch {
      // Offered while closing: nothing to send.
    } finally {
      this.makingOffer = false;
    }
  }

  private onIceState(): void {
    if (this.closed) return;
    const state = this.pc.iceConnectionState;
    if (state === 'connected' || state === 'completed') {
      if (this.restartTimer) clearTimeout(this.restartTimer);
      this.restartTimer = null;
      if (!this.everConnected || this.isLost) {
        this.everConnected = true;
        this.isLost = false;
        this.options.events.flowing();
      }
      return;
    }
    if (state === 'disconnected' || state === 'failed') {
      if (!this.isLost && this.everConnected) {
        this.isLost = true;
        this.options.events.lost();
      }
      if (state === 'failed') {
        this.restartIce();
      } else if (!this.restartTimer) {
        // A short blip often heals alone; past it, gather again on the network there is now.
        this.restartTimer = setTimeout(() => {
          this.restartTimer = null;
          if (this.pc.iceConnectionState !== 'connected') this.restartIce();
        }, ICE_RESTART_AFTER_MS);
      }
    }
  }
}
