/**
 * What runs inside the pages of the call-set-up benchmark. These functions are handed to
 * Playwright as source text, so they use nothing from this module but browser APIs.
 */

/** What the probe keeps in a page, read back with `page.evaluate`. */
export interface CallProbe {
  /** Date.now() when `[data-call-action="accept"]` was clicked (capture phase), this run. */
  acceptedAt: number | null;
  /** Date.now() of the first frame any `video[data-call-remote]` presented, this run. */
  firstFrameAt: number | null;
  /** Every RTCPeerConnection the page made this run. */
  connections: RTCPeerConnection[];
  /** Date.now() when each of them was made. */
  madeAt: number[];
  /** Date.now() when each of them that got there was first `connected` (ICE and DTLS). */
  connectedAt: number[];
  /** Forgets the last run: a new accept, a new first frame, new connections. */
  arm(): void;
  /** Watches every remote video of the page for its first frame from now on. */
  watchVideos(): void;
  /**
   * The type of the local candidate (`relay`, `host`, `srflx`, `prflx`) each connected
   * connection of this run sends through.
   */
  candidateTypes(): Promise<string[]>;
  /** Where the page's call stands, for a run that fails: its connections and videos. */
  describe(): string;
}

export type ProbedWindow = Window & { callProbe: CallProbe };

/** The fields of WebRTC's statistics the probe reads: transports, pairs, candidates. */
interface RtcReport {
  id: string;
  type: string;
  selectedCandidatePairId?: string;
  localCandidateId?: string;
  candidateType?: string;
}

/**
 * tsx compiles this module keeping function names with a helper, `__name`, that it calls
 * inside functions' bodies; the page has no such helper, so it gets one that does nothing.
 */
export const KEEP_NAMES_SHIM = 'globalThis.__name = (target) => target;';

/**
 * Installed before any page script (`addInitScript`): counts the page's
 * RTCPeerConnections, notes the accept click, and watches remote videos for their first
 * frame (`requestVideoFrameCallback`, so the frame was presented, not just decoded). Times
 * are Date.now(), which pages of one browser share.
 */
export function installCallProbe(): void {
  const watched = new WeakMap<HTMLVideoElement, number>();
  let generation = 0;
  const probe: CallProbe = {
    acceptedAt: null,
    firstFrameAt: null,
    connections: [],
    madeAt: [],
    connectedAt: [],
    arm() {
      generation += 1;
      probe.acceptedAt = null;
      probe.firstFrameAt = null;
      probe.connections = [];
      probe.madeAt = [];
      probe.connectedAt = [];
      probe.watchVideos();
    },
    watchVideos() {
      document.querySelectorAll<HTMLVideoElement>('video[data-call-remote]').forEach((video) => {
        if (watched.get(video) === generation) return;
        watched.set(video, generation);
        const armedIn = generation;
        video.requestVideoFrameCallback(() => {
          if (armedIn === generation) probe.firstFrameAt ??= Date.now();
        });
      });
    },
    describe() {
      const connections = probe.connections.map(
        (connection) =>
          `${connection.connectionState} (signalling ${connection.signalingState}, ` +
          `ICE gathering ${connection.iceGatheringState})`,
      );
      const videos = document.querySelectorAll('video[data-call-remote]').length;
      return (
        `connections: ${connections.join(', ') || 'none'}; remote videos: ${videos}; ` +
        `first frame: ${probe.firstFrameAt === null ? 'none' : 'shown'}`
      );
    },
    async candidateTypes() {
      const types: string[] = [];
      for (const connection of probe.connections) {
        if (connection.connectionState !== 'connected') continue;
        const reports = new Map<string, RtcReport>();
        (await connection.getStats()).forEach((report: RtcReport) =>
          reports.set(report.id, report),
        );
        reports.forEach((report) => {
          if (report.type !== 'transport' || !report.selectedCandidatePairId) return;
          const pair = reports.get(report.selectedCandidatePairId);
          const local = pair?.localCandidateId ? reports.get(pair.localCandidateId) : undefined;
          types.push(local?.candidateType ?? 'none');
        });
      }
      return types;
    },
  };
  (window as unknown as ProbedWindow).callProbe = probe;

  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = new Proxy(Native, {
    construct(target, args: [RTCConfiguration?], newTarget: new () => object) {
      const connection = Reflect.construct<[RTCConfiguration?], RTCPeerConnection>(
        target,
        args,
        newTarget,
      );
      probe.connections.push(connection);
      probe.madeAt.push(Date.now());
      const madeIn = generation;
      const onState = () => {
        if (connection.connectionState !== 'connected') return;
        connection.removeEventListener('connectionstatechange', onState);
        if (madeIn === generation) probe.connectedAt.push(Date.now());
      };
      connection.addEventListener('connectionstatechange', onState);
      return connection;
    },
  });

  document.addEventListener(
    'click',
    (event) => {
      if (event.target instanceof Element && event.target.closest('[data-call-action="accept"]'))
        probe.acceptedAt ??= Date.now();
    },
    { capture: true },
  );
  new MutationObserver(() => probe.watchVideos()).observe(document, {
    childList: true,
    subtree: true,
  });
}

export interface BaselineRun {
  /** createOffer to the later of the two sides' first remote frame. */
  ms: number;
  /** Each side's own first frame, after createOffer. */
  sidesMs: number[];
  /** createOffer to the later of the two connections being connected. */
  connectedMs: number;
  candidateTypes: string[];
}

/**
 * The baseline, in one page with the probe: two RTCPeerConnections (each with its own
 * configuration, TURN only), both sending the fake camera and microphone, offer and answer
 * handed across in the page and candidates trickled as they come; from createOffer to the
 * first frame of each side's remote video, the later of the two.
 */
export async function baselineCall({
  configurations,
  timeoutMs,
}: {
  configurations: RTCConfiguration[];
  timeoutMs: number;
}): Promise<BaselineRun> {
  const probe = (window as unknown as ProbedWindow).callProbe;
  probe.arm();
  const streams = await Promise.all(
    configurations.map(() => navigator.mediaDevices.getUserMedia({ audio: true, video: true })),
  );
  const peers = configurations.map((configuration) => new RTCPeerConnection(configuration));
  const videos = peers.map(() => {
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.width = 160;
    video.height = 120;
    document.body.append(video);
    return video;
  });
  try {
    const frames = peers.map(
      (peer, index) =>
        new Promise<number>((resolve) => {
          const video = videos[index]!;
          peer.ontrack = (event) => {
            if (event.track.kind !== 'video') return;
            video.srcObject = event.streams[0] ?? new MediaStream([event.track]);
            void video.play();
          };
          video.requestVideoFrameCallback(() => resolve(Date.now()));
        }),
    );
    // Candidates that come before the other side has the description wait for it.
    const waiting: RTCIceCandidate[][] = peers.map(() => []);
    peers.forEach((peer, index) => {
      const other = peers[1 - index]!;
      peer.onicecandidate = (event) => {
        if (!event.candidate) return;
        if (other.remoteDescription) void other.addIceCandidate(event.candidate);
        else waiting[1 - index]!.push(event.candidate);
      };
    });
    streams.forEach((stream, index) => {
      for (const track of stream.getTracks()) peers[index]!.addTrack(track, stream);
    });
    const [offerer, answerer] = peers as [RTCPeerConnection, RTCPeerConnection];
    const start = Date.now();
    await offerer.setLocalDescription(await offerer.createOffer());
    await answerer.setRemoteDescription(offerer.localDescription!);
    for (const candidate of waiting[1]!.splice(0)) await answerer.addIceCandidate(candidate);
    await answerer.setLocalDescription(await answerer.createAnswer());
    await offerer.setRemoteDescription(answerer.localDescription!);
    for (const candidate of waiting[0]!.splice(0)) await offerer.addIceCandidate(candidate);
    let timer = 0;
    const ends = await Promise.race([
      Promise.all(frames),
      new Promise<never>((_, reject) => {
        timer = window.setTimeout(
          () => reject(new Error(`no remote frame within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
    window.clearTimeout(timer);
    const sidesMs = ends.map((end) => end - start);
    return {
      ms: Math.max(...sidesMs),
      sidesMs,
      connectedMs: Math.max(...probe.connectedAt) - start,
      candidateTypes: await probe.candidateTypes(),
    };
  } finally {
    for (const peer of peers) peer.close();
    for (const stream of streams) for (const track of stream.getTracks()) track.stop();
    for (const video of videos) video.remove();
  }
}
