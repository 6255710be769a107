import type { Deadline } from './machine.js';

/** Node fires longer timers at once; a call's deadlines are seconds away. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One timer per call this node changed last, for its next deadline (the end of ringing,
 * of lost media's grace). A timer that fires finds the call as stored and applies what is
 * due then (the machine's `due` event), so a timer that another node's change made stale
 * does nothing; calls whose node went away are settled when they are next read.
 */
export class CallTimers {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly deps: {
      now: () => number;
      /** The call's deadline came: apply it. */
      fire: (callId: string) => void;
    },
  ) {}

  /** Waits for the call's deadline, in place of what it waited for; null: for nothing. */
  arm(callId: string, deadline: Deadline | null): void {
    this.disarm(callId);
    if (!deadline) return;
    const delay = Math.min(Math.max(0, deadline.at - this.deps.now()), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      this.timers.delete(callId);
      this.deps.fire(callId);
    }, delay);
    timer.unref();
    this.timers.set(callId, timer);
  }

  disarm(callId: string): void {
    const timer = this.timers.get(callId);
    if (timer) clearTimeout(timer);
    this.timers.delete(callId);
  }

  /** Calls waiting on a timer here. */
  get size(): number {
    return this.timers.size;
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
