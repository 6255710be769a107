import type { CallsClient } from '@teltlk/im-sdk';
import type { Call, CallMedia, CallSignal } from '@teltlk/protocol';
import { cameraConstraints, type MediaProblem, MediaUnavailable } from './local-media';
import { PeerLink, type LinkStats, type MediaEvents, type MediaLink } from './peer-link';

/** How a call's media reads: the mark beside the duration. */
export type Quality = 'good' | 'fair' | 'poor';

/** Reads of the link this often while in a call (the quality mark). */
const STATS_EVERY_MS = 2_000;

export function qualityOf(stats: LinkStats): Quality {
  const rtt = stats.roundTrip ?? 0;
  if (rtt > 0.6 || stats.loss > 0.1) return 'poor';
  if (rtt > 0.3 || stats.loss > 0.03) return 'fair';
  return 'good';
}

export interface RemotePerson {
  userId: string;
  stream: MediaStream | null;
  talking: boolean;
}

/** One call on this device, as its screens show it. */
export interface SessionView {
  /** Null until the server has the invite. */
  callId: string | null;
  conversationId: string;
  media: CallMedia;
  group: boolean;
  local: MediaStream | null;
  remotes: readonly RemotePerson[];
  micOn: boolean;
  cameraOn: boolean;
  facing: 'user' | 'environment';
  sharing: boolean;
  /** Media flows: the duration counts from `flowingSince`. */
  flowingSince: number | null;
  /** Media stopped: ICE restarts, and the call fails after its grace. */
  reconnecting: boolean;
  quality: Quality | null;
  problem: MediaProblem | null;
  minimized: boolean;
  /** The device's part is over (the call ended, or this device left it). */
  closed: boolean;
}

export interface SessionDeps {
  calls: CallsClient;
  selfId: string;
  /** The microphone (and camera): the platform's permission, then the browser's. */
  localMedia(media: CallMedia): Promise<MediaStream>;
  /** A group call's media through the SFU (null where none is configured). */
  openGroupLink?(input: {
    call: Call;
    calls: CallsClient;
    local: MediaStream;
    events: MediaEvents;
  }): Promise<MediaLink>;
  RTCPeerConnection?: typeof RTCPeerConnection;
}

let clientCallCounter = 0;

function newClientCallId(): string {
  clientCallCounter += 1;
  const random = crypto.getRandomValues(new Uint8Array(9));
  const text = btoa(String.fromCharCode(...random)).replace(/[+/=]/g, '');
  return `c${Date.now().toString(36)}${clientCallCounter}${text}`.slice(0, 64);
}

/**
 * A call on this device: its local media, the link that carries it (a peer connection or
 * the SFU), and what the screens show. The call itself (who rings, who took it, when it
 * ended) is the server's, read from the engine's calls; this is only the device's part.
 */
export class CallSession {
  private view: SessionView;
  private readonly listeners = new Set<() => void>();
  private link: MediaLink | null = null;
  private peer: PeerLink | null = null;
  /** Signals that came before the link (the caller's offer right after the accept). */
  private early: CallSignal[] = [];
  private readonly offs: (() => void)[] = [];
  private statsTimer: ReturnType<typeof setInterval> | null = null;
  private reportedFlowing = false;
  private closed = false;
  private cameraTrack: MediaStreamTrack | null = null;

  private constructor(
    private readonly deps: SessionDeps,
    init: { conversationId: string; media: CallMedia; group: boolean; callId: string | null },
  ) {
    this.view = {
      ...init,
      local: null,
      remotes: [],
      micOn: true,
      cameraOn: init.media === 'video',
      facing: 'user',
      sharing: false,
      flowingSince: null,
      reconnecting: false,
      quality: null,
      problem: null,
      minimized: false,
      closed: false,
    };
    const { calls } = deps;
    this.offs.push(
      calls.on('signal', ({ callId, signal }) => {
        if (callId !== this.view.callId) return;
        if (this.peer) void this.peer.handle(signal);
        else this.early.push(signal);
      }),
      calls.subscribe(() => this.onCalls()),
      // The server took this device as gone while its socket was down: still here.
      calls.on('reconnected', () => {
        const id = this.view.callId;
        if (id === null || this.closed) return;
        if (this.view.group) void calls.accept(id).catch(() => undefined);
        else if (this.reportedFlowing && !this.view.reconnecting) {
          void calls.media(id, 'restored').catch(() => undefined);
        }
      }),
    );
    const restart = () => this.link?.restartIce();
    window.addEventListener('online', restart);
    this.offs.push(() => window.removeEventListener('online', restart));
    const connection = (navigator as Navigator & { connection?: EventTarget }).connection;
    if (connection) {
      connection.addEventListener('change', restart);
      this.offs.push(() => connection.removeEventListener('change', restart));
    }
  }

  /** Calls from this device: media first (a refusal rings no one), then the invite. */
  static async outgoing(
    deps: SessionDeps,
    input: { conversationId: string; media: CallMedia; group: boolean },
  ): Promise<CallSession> {
    const session = new CallSession(deps, { ...input, callId: null });
    try {
      await session.openMedia();
      const call = await deps.calls.invite(input.conversationId, input.media, newClientCallId());
      session.set({ callId: call.id });
      session.onCalls();
    } catch (error) {
      session.close();
      throw error;
    }
    return session;
  }

  /** Takes a ringing call (or joins a group's running call) on this device. */
  static async answer(deps: SessionDeps, call: Call): Promise<CallSession> {
    const session = new CallSession(deps, {
      conversationId: call.conversationId,
      media: call.media,
      group: call.kind === 'group',
      callId: call.id,
    });
    try {
      await session.openMedia();
      await deps.calls.accept(call.id);
      session.onCalls();
    } catch (error) {
      session.close();
      throw error;
    }
    return session;
  }

  getSnapshot = (): SessionView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The call as the server has it, once invited. */
  call(): Call | undefined {
    const id = this.view.callId;
    const now = id === null ? undefined : this.deps.calls.getSnapshot().find((c) => c.id === id);
    // Kept once ended: the screens read how it ended after the engine forgot it.
    if (now) this.lastCall = now;
    return this.lastCall;
  }

  private lastCall: Call | undefined;

  get isClosed(): boolean {
    return this.view.closed;
  }

  setMic(on: boolean): void {
    for (const track of this.view.local?.getAudioTracks() ?? []) track.enabled = on;
    void this.link?.setAudio?.(on).catch(() => undefined);
    this.set({ micOn: on });
  }

  setCamera(on: boolean): void {
    for (const track of this.view.local?.getVideoTracks() ?? []) track.enabled = on;
    void this.link?.setVideo?.(on).catch(() => undefined);
    this.set({ cameraOn: on });
  }

  setMinimized(minimized: boolean): void {
    this.set({ minimized });
  }

  /** The other camera of a phone: a new track in place of the old, on the same sender. */
  async switchCamera(): Promise<void> {
    const local = this.view.local;
    if (!local || this.view.sharing) return;
    const facing = this.view.facing === 'user' ? 'environment' : 'user';
    const fresh = await navigator.mediaDevices.getUserMedia({ video: cameraConstraints(facing) });
    const track = fresh.getVideoTracks()[0];
    if (!track) return;
    track.enabled = this.view.cameraOn;
    for (const old of local.getVideoTracks()) {
      local.removeTrack(old);
      old.stop();
    }
    local.addTrack(track);
    await this.link?.replaceVideo(track);
    this.set({ facing, local: new MediaStream(local.getTracks()) });
  }

  /** Shares the screen in place of the camera, until it stops or is stopped. */
  async shareScreen(on: boolean): Promise<void> {
    const local = this.view.local;
    if (!local || on === this.view.sharing) return;
    if (on) {
      const screen = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
      const track = screen.getVideoTracks()[0];
      if (!track) return;
      this.cameraTrack = local.getVideoTracks()[0] ?? null;
      track.addEventListener('ended', () => void this.shareScreen(false));
      await this.link?.replaceVideo(track);
      this.set({ sharing: true, local: new MediaStream([...local.getAudioTracks(), track]) });
      this.screenTrack = track;
      return;
    }
    this.screenTrack?.stop();
    this.screenTrack = null;
    await this.link?.replaceVideo(this.cameraTrack);
    this.set({ sharing: false, local });
  }

  private screenTrack: MediaStreamTrack | null = null;

  /** Ends this device's part: hangs up (or cancels) on the server, and stops the media. */
  async hangup(): Promise<void> {
    const call = this.call();
    this.close();
    if (!call || call.state === 'ended') return;
    if (call.callerId === this.deps.selfId && call.state === 'ringing' && call.kind === 'single') {
      await this.deps.calls.cancel(call.id);
    } else {
      await this.deps.calls.hangup(call.id);
    }
  }

  /** Stops the media and the link; the call on the server is not touched. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const off of this.offs.splice(0)) off();
    if (this.statsTimer) clearInterval(this.statsTimer);
    this.link?.close();
    this.link = null;
    this.peer = null;
    for (const track of this.view.local?.getTracks() ?? []) track.stop();
    this.screenTrack?.stop();
    this.cameraTrack?.stop();
    this.set({ closed: true });
  }

  private async openMedia(): Promise<void> {
    try {
      const local = await this.deps.localMedia(this.view.media);
      if (this.closed) {
        for (const track of local.getTracks()) track.stop();
        return;
      }
      this.set({ local });
    } catch (error) {
      this.set({ problem: error instanceof MediaUnavailable ? error.problem : 'unsupported' });
      throw error;
    }
  }

  /** The call changed on the server: start the media once both sides are in it. */
  private onCalls(): void {
    if (this.closed) return;
    const call = this.call();
    if (!call) return;
    if (call.state === 'ended') {
      this.close();
      return;
    }
    if (!this.link && this.view.local) {
      // A failed start (the ICE servers or the SFU not answering) is tried again on the
      // call's next change, rather than left as an unhandled rejection.
      void this.connect(call).catch(() => {
        this.connecting = false;
      });
    }
    if (call.kind === 'group') this.pruneRemotes(call);
  }

  private connecting = false;

  private async connect(call: Call): Promise<void> {
    const me = call.participants.find((p) => p.userId === this.deps.selfId);
    if (me?.state !== 'joined' || this.connecting) return;
    const local = this.view.local;
    if (!local) return;
    if (call.kind === 'single') {
      const other = call.participants.find((p) => p.userId !== this.deps.selfId);
      if (other?.state !== 'joined') return;
      this.connecting = true;
      const ice = await this.deps.calls.iceServers();
      if (this.closed) return;
      const peer = new PeerLink({
        ice,
        local,
        polite: call.callerId !== this.deps.selfId,
        peerId: other.userId,
        send: (signal) => this.deps.calls.signal(call.id, signal),
        events: this.events,
        RTCPeerConnection: this.deps.RTCPeerConnection,
      });
      this.peer = peer;
      this.link = peer;
      for (const signal of this.early.splice(0)) void peer.handle(signal);
    } else {
      if (!this.deps.openGroupLink) return;
      this.connecting = true;
      const link = await this.deps.openGroupLink({
        call,
        calls: this.deps.calls,
        local,
        events: this.events,
      });
      if (this.closed) {
        link.close();
        return;
      }
      this.link = link;
    }
    this.statsTimer = setInterval(() => void this.readStats(), STATS_EVERY_MS);
  }

  private readonly events: MediaEvents = {
    remote: (userId, stream) => this.putRemote(userId, { stream }),
    remoteGone: (userId) =>
      this.set({ remotes: this.view.remotes.filter((r) => r.userId !== userId) }),
    talking: (userId, talking) => this.putRemote(userId, { talking }),
    flowing: () => {
      const callId = this.view.callId;
      this.set({ reconnecting: false, flowingSince: this.view.flowingSince ?? Date.now() });
      if (callId === null) return;
      const state = this.reportedFlowing ? 'restored' : 'connected';
      this.reportedFlowing = true;
      void this.deps.calls.media(callId, state).catch(() => undefined);
    },
    lost: () => {
      const callId = this.view.callId;
      this.set({ reconnecting: true });
      if (callId !== null) void this.deps.calls.media(callId, 'lost').catch(() => undefined);
    },
  };

  private putRemote(userId: string, patch: Partial<RemotePerson>): void {
    const known = this.view.remotes.find((r) => r.userId === userId);
    const next: RemotePerson = { userId, stream: null, talking: false, ...known, ...patch };
    this.set({
      remotes: known
        ? this.view.remotes.map((r) => (r.userId === userId ? next : r))
        : [...this.view.remotes, next],
    });
  }

  /** People who left a group call leave the grid. */
  private pruneRemotes(call: Call): void {
    const joined = new Set(
      call.participants.filter((p) => p.state === 'joined').map((p) => p.userId),
    );
    const kept = this.view.remotes.filter((r) => joined.has(r.userId));
    if (kept.length !== this.view.remotes.length) this.set({ remotes: kept });
  }

  private async readStats(): Promise<void> {
    const stats = await this.link?.stats().catch(() => null);
    if (stats) this.set({ quality: qualityOf(stats) });
  }

  private set(patch: Partial<SessionView>): void {
    this.view = { ...this.view, ...patch };
    this.emit();
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
