import { randomBytes, randomInt } from 'node:crypto';
import type { CallsConfig } from '../../config.js';

/** What the calls service asks of the SFU: rooms for group calls, and who may join them. */
export interface Sfu {
  /** Where browsers reach the SFU. */
  readonly publicUrl: string;
  /** A new room for `publishers` people, admitting only holders of `tokens`. */
  createRoom(input: { publishers: number; tokens: readonly string[] }): Promise<SfuRoom>;
  /** Admits the holders of `tokens` too. */
  allow(room: SfuRoom, tokens: readonly string[]): Promise<void>;
  /** Closes the room, dropping whoever is still in it. */
  destroyRoom(room: SfuRoom): Promise<void>;
}

export interface SfuRoom {
  id: number;
  /** What the room is managed with (tokens added, destroyed); the server's alone. */
  secret: string;
}

/** An error the SFU answered with, or no answer at all. */
export class SfuError extends Error {
  constructor(
    message: string,
    /** Janus's error code (VideoRoom's 433 is "unauthorized"), when it gave one. */
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = 'SfuError';
  }
}

/** A Janus answer as the HTTP API gives it: the parts read here. */
interface JanusReply {
  janus: string;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { data?: Record<string, unknown> };
}

/** Room ids are Janus's 64-bit integers; ours stay within what JSON numbers carry exactly. */
const ROOM_ID_MAX = 2 ** 48;
/** A request Janus does not answer in this time fails (the caller reports it). */
const REQUEST_TIMEOUT_MS = 5_000;

/**
 * Janus (its VideoRoom plugin) through its HTTP API, on the server's side: each operation
 * opens a Janus session, attaches to the plugin, sends its request and destroys the
 * session. Rooms are private (not listed), kept in memory only, managed with a room
 * secret, and admit only the tokens of their `allowed` list (and, to subscribe, the
 * private id of someone admitted); making one needs the plugin's admin key, which
 * browsers never get.
 */
export class JanusVideoRoom implements Sfu {
  constructor(
    private readonly options: {
      /** The HTTP API, e.g. `http://127.0.0.1:8088/janus`. */
      url: string;
      publicUrl: string;
      /** The VideoRoom's `admin_key`. */
      adminKey: string | null;
      fetch?: typeof fetch;
    },
  ) {}

  get publicUrl(): string {
    return this.options.publicUrl;
  }

  async createRoom(input: { publishers: number; tokens: readonly string[] }): Promise<SfuRoom> {
    const room: SfuRoom = {
      id: randomInt(1, ROOM_ID_MAX),
      secret: randomBytes(24).toString('base64url'),
    };
    await this.request({
      request: 'create',
      room: room.id,
      ...(this.options.adminKey ? { admin_key: this.options.adminKey } : {}),
      secret: room.secret,
      is_private: true,
      permanent: false,
      publishers: input.publishers,
      allowed: [...input.tokens],
      // Subscribing takes the private id Janus gives a publisher who joined with a token:
      // the token list guards watching too, not only publishing.
      require_pvtid: true,
      // Janus tells every participant who starts and stops talking, from the audio levels
      // browsers put on each packet: louder than -40 dBov on average over 50 packets (a
      // second of 20 ms Opus frames). Its default, -25 dBov over two seconds, misses a
      // voice at a phone's distance and lags behind it.
      audiolevel_event: true,
      audio_active_packets: 50,
      audio_level_average: 40,
      description: 'Teltlk group call',
    });
    return room;
  }

  async allow(room: SfuRoom, tokens: readonly string[]): Promise<void> {
    await this.request({
      request: 'allowed',
      room: room.id,
      secret: room.secret,
      action: 'add',
      allowed: [...tokens],
    });
  }

  async destroyRoom(room: SfuRoom): Promise<void> {
    await this.request({
      request: 'destroy',
      room: room.id,
      secret: room.secret,
      permanent: false,
    });
  }

  /** One synchronous VideoRoom request on a session of its own. */
  private async request(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const session = await this.open();
    try {
      const handle = await this.attach(session);
      const reply = await this.post(`/${session}/${handle}`, { janus: 'message', body });
      const data = reply.plugindata?.data;
      if (reply.janus !== 'success' || !data) {
        throw new SfuError(
          reply.error?.reason ?? `unexpected answer ${reply.janus}`,
          reply.error?.code,
        );
      }
      if (typeof data.error_code === 'number') {
        throw new SfuError(String(data.error), data.error_code);
      }
      return data;
    } finally {
      await this.post(`/${session}`, { janus: 'destroy' }).catch(() => undefined);
    }
  }

  /** A new Janus session: its id. */
  async open(): Promise<number> {
    return this.idOf(await this.post('', { janus: 'create' }));
  }

  /** A handle on the VideoRoom plugin in `session`: its id. */
  async attach(session: number): Promise<number> {
    return this.idOf(
      await this.post(`/${session}`, { janus: 'attach', plugin: 'janus.plugin.videoroom' }),
    );
  }

  private idOf(reply: JanusReply): number {
    const id = reply.data?.id;
    if (reply.janus !== 'success' || typeof id !== 'number') {
      throw new SfuError(
        reply.error?.reason ?? `unexpected answer ${reply.janus}`,
        reply.error?.code,
      );
    }
    return id;
  }

  async post(path: string, message: Record<string, unknown>): Promise<JanusReply> {
    const send = this.options.fetch ?? fetch;
    let response: Response;
    try {
      response = await send(`${this.options.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...message, transaction: randomBytes(8).toString('hex') }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new SfuError(`Janus unreachable: ${(error as Error).message}`);
    }
    if (!response.ok) throw new SfuError(`Janus answered ${response.status}`);
    return (await response.json()) as JanusReply;
  }
}

/** The SFU of group calls as configured: Janus's VideoRoom, or none (JANUS_URL unset). */
export function configuredSfu(janus: CallsConfig['janus']): Sfu | null {
  if (!janus) return null;
  return new JanusVideoRoom({
    url: janus.url,
    publicUrl: janus.publicUrl,
    adminKey: janus.roomAdminKey,
  });
}
