import type { StepUpAsk } from '@teltlk/client';
import type { HttpMethod } from '@teltlk/protocol';
import type { StepUpReason } from '@teltlk/protocol';

/** What the step-up sheet is opened for. */
export interface StepUpRequest {
  reason: StepUpReason;
  /**
   * Every call waiting on it moves money, so the payment password may prove it (the
   * server takes it for money only, and never on a device on hold).
   */
  money: boolean;
}

/**
 * The calls that move money, as `METHOD path`: the payment password proves these. A
 * step-up made with it for anything else would be refused again.
 */
const MONEY_CALLS: readonly RegExp[] = [
  /^POST \/wallet\/withdraw$/,
  /^POST \/wallet\/transfers$/,
  /^POST \/wallet\/envelopes$/,
  /^POST \/wallet\/nfts\/[^/]+\/send$/,
  /^POST \/wallet\/password\/change$/,
];

export function isMoneyCall(method: HttpMethod, path: string): boolean {
  const call = `${method} ${path.split('?')[0]}`;
  return MONEY_CALLS.some((pattern) => pattern.test(call));
}

export function requestOf(ask: StepUpAsk): StepUpRequest {
  return { reason: ask.reason, money: isMoneyCall(ask.method, ask.path) };
}

/**
 * One sheet for calls refused at the same time: a hold is the stricter reason, and the
 * payment password counts only if it counts for each of them.
 */
export function joinRequests(open: StepUpRequest, next: StepUpRequest): StepUpRequest {
  return {
    reason: open.reason === 'hold' || next.reason === 'hold' ? 'hold' : 'stale',
    money: open.money && next.money,
  };
}

type Listener = () => void;

/**
 * Where calls refused for want of a step-up wait for the person: one request at a time,
 * shown by the step-up sheet, which settles it; every call that waited then goes on
 * (proven) or fails quietly (given up). React reads it with useSyncExternalStore.
 */
export class StepUpGate {
  private open: { request: StepUpRequest; proven: Promise<boolean> } | null = null;
  private settleOpen: ((proven: boolean) => void) | null = null;
  private readonly listeners = new Set<Listener>();

  /** Resolves true once the person has proven it is them, false if they gave up. */
  ask(request: StepUpRequest): Promise<boolean> {
    if (this.open) {
      const joined = joinRequests(this.open.request, request);
      if (joined.reason !== this.open.request.reason || joined.money !== this.open.request.money) {
        this.open = { ...this.open, request: joined };
        this.changed();
      }
      return this.open.proven;
    }
    const proven = new Promise<boolean>((resolve) => {
      this.settleOpen = resolve;
    });
    this.open = { request, proven };
    this.changed();
    return proven;
  }

  settle(proven: boolean): void {
    const settle = this.settleOpen;
    if (!settle) return;
    this.open = null;
    this.settleOpen = null;
    settle(proven);
    this.changed();
  }

  readonly getSnapshot = (): StepUpRequest | null => this.open?.request ?? null;

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The app's one gate: the API client asks it, the sheet (app layout) settles it. */
export const stepUpGate = new StepUpGate();
