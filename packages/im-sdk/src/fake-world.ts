import { IDBFactory } from 'fake-indexeddb';
import { expect, vi } from 'vitest';
import type { ImEngine } from './engine.js';
import { FakeServer } from './fake-server.js';
import { FakeSocket } from './fake-socket.js';
import { record, testEngine } from './test-fixtures.js';

/**
 * The fake server and the engines of a test, for what the real server cannot be made to
 * do on cue (see fake-server.ts).
 */
export class FakeWorld {
  readonly server: FakeServer;
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

  async close(): Promise<void> {
    for (const engine of this.engines.splice(0)) await engine.stop();
    FakeSocket.reset();
  }
}
