import type { ConnectionState, EngineError, EngineState } from './types.js';

/** What happens to the engine that moves where it stands. */
export type EngineAction =
  /** The local cache is loaded: the list shows, before any network. */
  | { type: 'opened' }
  /** The engine stopped: the cache is closed. */
  | { type: 'closed' }
  | { type: 'connection'; state: ConnectionState }
  /** A sync started (true) or ended (false). */
  | { type: 'syncing'; syncing: boolean }
  /** Background work failed; it replaces an earlier failure of its kind. */
  | { type: 'failed'; error: EngineError }
  /** Background work of this kind succeeded: its failure is over. */
  | { type: 'recovered'; kind: EngineError['kind'] };

export const INITIAL_STATE: EngineState = { status: 'starting', errors: [] };

/**
 * The one way the engine's state moves. A sync runs over REST, so it may go on while
 * the socket is down: the states without a socket keep whether one runs, and the state
 * the socket comes back to says so. Answers the same object when nothing changed.
 */
export function nextState(state: EngineState, action: EngineAction): EngineState {
  switch (action.type) {
    case 'opened':
      return state.status === 'starting'
        ? { status: 'offline', syncing: false, errors: [] }
        : state;
    case 'closed':
      return state.status === 'starting' ? state : INITIAL_STATE;
    case 'connection':
      return state.status === 'starting' ? state : withConnection(state, action.state);
    case 'syncing':
      return withSyncing(state, action.syncing);
    case 'failed':
      return {
        ...state,
        errors: [...state.errors.filter(({ kind }) => kind !== action.error.kind), action.error],
      };
    case 'recovered':
      if (!state.errors.some(({ kind }) => kind === action.kind)) return state;
      return { ...state, errors: state.errors.filter(({ kind }) => kind !== action.kind) };
  }
}

function syncRunning(state: EngineState): boolean {
  switch (state.status) {
    case 'starting':
    case 'ready':
      return false;
    case 'syncing':
      return true;
    case 'offline':
    case 'connecting':
      return state.syncing;
  }
}

function withConnection(state: EngineState, connection: ConnectionState): EngineState {
  const syncing = syncRunning(state);
  const { errors } = state;
  let next: EngineState;
  if (connection === 'disconnected') next = { status: 'offline', syncing, errors };
  else if (connection === 'connecting') next = { status: 'connecting', syncing, errors };
  else next = { status: syncing ? 'syncing' : 'ready', errors };
  return sameState(state, next) ? state : next;
}

function withSyncing(state: EngineState, syncing: boolean): EngineState {
  let next: EngineState;
  switch (state.status) {
    case 'starting':
      return state;
    case 'offline':
    case 'connecting':
      next = { ...state, syncing };
      break;
    case 'syncing':
    case 'ready':
      next = { status: syncing ? 'syncing' : 'ready', errors: state.errors };
      break;
  }
  return sameState(state, next) ? state : next;
}

function sameState(a: EngineState, b: EngineState): boolean {
  return a.status === b.status && a.errors === b.errors && syncRunning(a) === syncRunning(b);
}
