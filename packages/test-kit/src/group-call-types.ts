/**
 * What the group call page (page/group-call.ts, in the browser) and the tests and
 * benchmarks driving it (group-call-page.ts) say to each other.
 */

/** POST /calls/:id/sfu's answer: a person's way into the call's room. */
export interface SfuWay {
  url: string;
  room: number;
  token: string;
  display: string;
  publishers: number;
}

/** An RTCIceServer as GET /calls/ice-servers hands it out. */
export interface PageIceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

export interface PageJoin {
  way: SfuWay;
  iceServers: PageIceServer[];
  /** The fake camera too, at this size and rate; false: audio only. */
  video: { width: number; height: number; frameRate: number } | false;
  /**
   * The microphone: the fake device's (short beeps), or a steady tone the page turns on
   * and off (tone()), for talk detection to hear.
   */
  audio: 'microphone' | 'tone';
}

/** A refusal joining: Janus's code (433: the token is not in the room's list). */
export interface PageJoinError {
  code: number | null;
  message: string;
}

/** What the page heard of the call so far. */
export interface PageSeen {
  /** By user id: the state of their media and the tracks their stream holds. */
  participants: Record<
    string,
    { audio: boolean; video: boolean; audioTracks: number; videoTracks: number }
  >;
  left: string[];
  /** By user id (this person's too): talking now, by the room's talk detection. */
  talking: Record<string, boolean>;
  /** Times each user was heard to start talking. */
  talks: Record<string, number>;
  connection: string[];
  failed: string | null;
  /** Every event, in order, for a failure's message. */
  log: string[];
}

/** Bytes received so far from each participant, by kind (their inbound RTP streams). */
export type PageReceived = Record<string, { audio: number; video: number }>;
