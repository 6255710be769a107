/**
 * Janus's HTTP API as this client reads it: the messages the server answers with, and the
 * events its long poll hands back. Only the fields read here are typed.
 *
 * Ids of sessions, handles and publishers are Janus's 64-bit integers, which it keeps
 * within 2^53 so that JavaScript reads them exactly.
 */

/** A plugin's part of an answer or event: for the VideoRoom, `videoroom` says which. */
export type PluginData = Record<string, unknown> & {
  videoroom?: string;
  error_code?: number;
  error?: string;
};

export interface JanusMessage {
  /** `success`, `ack`, `error`, `event`, or a core event (`webrtcup`, `hangup`, …). */
  janus: string;
  transaction?: string;
  session_id?: number;
  /** The handle an event is about. */
  sender?: number;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: PluginData };
  jsep?: RTCSessionDescriptionInit;
  /** `hangup`: why the PeerConnection was closed. */
  reason?: string;
}

/** A refusal from Janus or its plugin, with its code when it gave one. */
export class JanusError extends Error {
  constructor(
    message: string,
    /**
     * Janus's code: the core's (458: no such session, 459: no such handle) or the
     * VideoRoom's (426: no such room, 428: no such feed, 433: unauthorized).
     */
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = 'JanusError';
  }
}

export const NO_SUCH_SESSION = 458;
export const NO_SUCH_FEED = 428;
export const UNAUTHORIZED = 433;

/** One stream of a publisher, as `joined` and `publishers` events list them. */
export interface PublishedStream {
  type: 'audio' | 'video' | 'data';
  mid: string;
  disabled?: boolean;
  /** What the publisher said of it: `on` or `off` from this client (see MEDIA_ON). */
  description?: string;
}

/** A publisher of the room, as `joined` and `publishers` events list them. */
export interface Publisher {
  id: number;
  display?: string;
  streams?: PublishedStream[];
}

/** One m-line of a subscription, as `attached` and `updated` events list them. */
export interface SubscribedStream {
  type: 'audio' | 'video' | 'data';
  mid: string;
  active: boolean;
  /** The publisher it carries; missing once that publisher is gone. */
  feed_id?: number;
}

/**
 * How a publisher says whether a stream is on: the stream's description, which Janus
 * hands every other participant again whenever it changes (a `publishers` event).
 */
export const MEDIA_ON = 'on';
export const MEDIA_OFF = 'off';

export function publishersOf(data: PluginData): Publisher[] {
  return Array.isArray(data.publishers) ? (data.publishers as Publisher[]) : [];
}

export function subscribedStreamsOf(data: PluginData): SubscribedStream[] | null {
  return Array.isArray(data.streams) ? (data.streams as SubscribedStream[]) : null;
}

/** Whether a publisher sends audio and video, and has them on. */
export function mediaOf(publisher: Publisher): { audio: boolean; video: boolean } {
  const on = (type: 'audio' | 'video') =>
    (publisher.streams ?? []).some(
      (stream) => stream.type === type && !stream.disabled && stream.description !== MEDIA_OFF,
    );
  return { audio: on('audio'), video: on('video') };
}

/** The id an event names (`leaving`, `unpublished`, `talking`): a number, else null. */
export function idOf(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}
