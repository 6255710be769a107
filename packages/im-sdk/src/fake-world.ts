import { IDBFactory } from 'fake-indexeddb';
import { expect, vi } from 'vitest';
import type { ImEngine } from './engine.js';
import { FakeServer } from './fake-server.js';
import { FakeSocket } from './fake-socket.js';
import { record, testEngine } from './test-fixtures.js';

/**
 * The fake server and the engines of a test, for what the real server cannot be made to
 * do: lose frames, drop sockets, go down, fail a sync, translate later on cue.
 */
export class FakeWorld {
  server: FakeServer;
  private readonly indexedDB = new IDBFactory();
  private readonly engines: ImEngine[] = [];

  constructor() {
    FakeSocket.reset();
    // The server registers itself with the sockets: built after the reset.
    this.server = new FakeServer();
  }

  engine(): ImEngine {
    const engine = testEngine(this.server, this.indexedDB);
    this.engines.push(engine);
    return engine;
  }

  /** A started engine, once its first sync finished. */
  async started(): Promise<ImEngine> {
    const engine = this.engine();
    const finished = record(engine, 'syncFinish');
    await engine.start();
    await vi.waitFor(() => expect(finished.length).toBeGreaterThan(0));
    return engine;
  }

  /** The network goes down: the socket drops and reconnects fail until `server.up`. */
  async goOffline(engine: ImEngine): Promise<void> {
    this.server.up = false;
    FakeSocket.last.drop();
    await vi.waitFor(() =>
      expect(['offline', 'connecting']).toContain(engine.getSnapshot().status),
    );
  }

  /** The app reloads: a new engine on the same database, and a server that kept its data. */
  async restart(engine: ImEngine): Promise<ImEngine> {
    await engine.stop();
    this.engines.splice(this.engines.indexOf(engine), 1);
    FakeSocket.reset();
    const { server } = this;
    this.server = Object.assign(new FakeServer(), {
      messages: server.messages,
      events: server.events,
      member: server.member,
      burnSeconds: server.burnSeconds,
      translations: server.translations,
      translateMode: server.translateMode,
    });
    return this.engine();
  }

  async close(): Promise<void> {
    for (const engine of this.engines.splice(0)) await engine.stop();
    FakeSocket.reset();
  }
}
