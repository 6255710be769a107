import { describe, expect, it } from 'vitest';
import { INITIAL_STATE, nextState, type EngineAction } from './engine-state.js';
import type { EngineError, EngineState } from './types.js';

const run = (...actions: EngineAction[]): EngineState => actions.reduce(nextState, INITIAL_STATE);

const syncError: EngineError = { kind: 'sync', code: 'INTERNAL', retry: () => {} };
const storeError: EngineError = { kind: 'store', code: 'UNKNOWN', retry: () => {} };

describe('nextState', () => {
  it('starts, shows the cache offline, connects, catches up and is up to date', () => {
    expect(INITIAL_STATE).toEqual({ status: 'starting', errors: [] });
    const opened = run({ type: 'opened' });
    expect(opened).toEqual({ status: 'offline', syncing: false, errors: [] });
    const connecting = nextState(opened, { type: 'connection', state: 'connecting' });
    expect(connecting).toEqual({ status: 'connecting', syncing: false, errors: [] });
    const connected = nextState(connecting, { type: 'connection', state: 'connected' });
    expect(connected).toEqual({ status: 'ready', errors: [] });
    const syncing = nextState(connected, { type: 'syncing', syncing: true });
    expect(syncing).toEqual({ status: 'syncing', errors: [] });
    expect(nextState(syncing, { type: 'syncing', syncing: false })).toEqual({
      status: 'ready',
      errors: [],
    });
  });

  it('ignores the network while the cache is not loaded, and forgets all when closed', () => {
    expect(run({ type: 'connection', state: 'connected' })).toBe(INITIAL_STATE);
    expect(run({ type: 'syncing', syncing: true })).toBe(INITIAL_STATE);
    const up = run(
      { type: 'opened' },
      { type: 'connection', state: 'connected' },
      { type: 'failed', error: syncError },
    );
    expect(nextState(up, { type: 'closed' })).toBe(INITIAL_STATE);
    expect(nextState(up, { type: 'opened' })).toBe(up);
  });

  it('keeps a sync that outlives the socket, and comes back to it on reconnect', () => {
    const dropped = run(
      { type: 'opened' },
      { type: 'connection', state: 'connected' },
      { type: 'syncing', syncing: true },
      { type: 'connection', state: 'disconnected' },
    );
    expect(dropped).toEqual({ status: 'offline', syncing: true, errors: [] });
    const back = run(
      { type: 'opened' },
      { type: 'connection', state: 'connected' },
      { type: 'syncing', syncing: true },
      { type: 'connection', state: 'disconnected' },
      { type: 'connection', state: 'connecting' },
      { type: 'connection', state: 'connected' },
    );
    expect(back).toEqual({ status: 'syncing', errors: [] });
    const endedOffline = nextState(dropped, { type: 'syncing', syncing: false });
    expect(nextState(endedOffline, { type: 'connection', state: 'connected' })).toEqual({
      status: 'ready',
      errors: [],
    });
  });

  it('keeps one failure per kind until that kind recovers', () => {
    const failed = run(
      { type: 'opened' },
      { type: 'failed', error: syncError },
      { type: 'failed', error: storeError },
      { type: 'failed', error: { ...syncError, code: 'NETWORK_ERROR' } },
    );
    expect(failed.errors.map(({ kind, code }) => `${kind}:${code}`)).toEqual([
      'store:UNKNOWN',
      'sync:NETWORK_ERROR',
    ]);
    const recovered = nextState(failed, { type: 'recovered', kind: 'sync' });
    expect(recovered.errors).toEqual([storeError]);
    expect(recovered.status).toBe('offline');
    expect(nextState(recovered, { type: 'recovered', kind: 'sync' })).toBe(recovered);
  });

  it('answers the same state when nothing changed', () => {
    const ready = run({ type: 'opened' }, { type: 'connection', state: 'connected' });
    expect(nextState(ready, { type: 'connection', state: 'connected' })).toBe(ready);
    expect(nextState(ready, { type: 'syncing', syncing: false })).toBe(ready);
    const offline = run({ type: 'opened' });
    expect(nextState(offline, { type: 'connection', state: 'disconnected' })).toBe(offline);
  });
});
