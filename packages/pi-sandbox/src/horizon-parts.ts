import { Keypair } from '@stellar/stellar-sdk/minimal';
import { createHash, randomBytes } from 'node:crypto';

/**
 * What the Horizon stand-in (horizon.ts) is made of: the documents it answers with, its
 * failure document, amounts in stroops, the sandbox's keys and the clock's whole seconds.
 */

/** Stroops: Pi's smallest unit, 1 Pi = 10,000,000. */
const STROOPS_PER_PI = 10_000_000n;
export const BASE_FEE_STROOPS = 100_000;

export interface HorizonAccount {
  id: string;
  sequence: bigint;
  /** In stroops. */
  balance: bigint;
}

export interface HorizonTransaction {
  hash: string;
  ledger: number;
  /** The source account's sequence number this transaction used. */
  sequence: bigint;
  /** Its one operation: a payment, or a bump of the source's sequence number. */
  operation: 'payment' | 'bump_sequence';
  memo: string;
  from: string;
  /** The payment's destination; the source itself for a sequence bump. */
  to: string;
  /** Decimal Pi with seven places, as Horizon writes amounts; zero for a sequence bump. */
  amount: string;
  envelopeXdr: string | null;
  createdAt: string;
}

/** What Horizon answers: status, headers (`Latest-Ledger`) and JSON body. */
export interface HorizonAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The parts of Horizon's view that can lag behind the chain. */
export type HorizonPart = 'accounts' | 'ledgers' | 'transactions';

/** Time between two ledgers closing when no transaction comes. */
export const LEDGER_CLOSE_MS = 5_000;

export interface Ledger {
  sequence: number;
  /** Epoch milliseconds, whole seconds (Horizon's `closed_at` has no fractions). */
  closedAt: number;
}

/** What a lagging view still shows: the chain as it was when it began to lag. */
export interface Snapshot {
  parts: ReadonlySet<HorizonPart>;
  ledger: Ledger;
  accounts: Map<string, { sequence: bigint; balance: bigint }>;
  transactions: Set<string>;
}

/** Horizon's failure document: status, title, and Stellar's result codes. */
export class HorizonError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly resultCode?: string,
    readonly operationCode?: string,
  ) {
    super(resultCode ? `${title}: ${resultCode}` : title);
  }

  toBody(): unknown {
    return {
      type: `https://stellar.org/horizon-errors/${problemType(this.status, this.resultCode)}`,
      title: this.title,
      status: this.status,
      ...(this.resultCode
        ? {
            extras: {
              result_codes: {
                transaction: this.resultCode,
                ...(this.operationCode ? { operations: [this.operationCode] } : {}),
              },
            },
          }
        : {}),
    };
  }
}

function problemType(status: number, resultCode: string | undefined): string {
  if (status === 404) return 'not_found';
  if (status === 503) return 'service_unavailable';
  if (status === 504) return 'timeout';
  return resultCode ? 'transaction_failed' : 'transaction_malformed';
}

/** Decimal Pi text with seven places from stroops. */
export function piText(stroops: bigint): string {
  const whole = stroops / STROOPS_PER_PI;
  const fraction = (stroops % STROOPS_PER_PI).toString().padStart(7, '0');
  return `${whole}.${fraction}`;
}

/** Stroops of a decimal Pi amount (at most seven places). */
export function stroopsOf(amount: string | number): bigint {
  const text = typeof amount === 'number' ? amount.toFixed(7) : amount;
  const match = /^(\d+)(?:\.(\d{1,7}))?$/.exec(text);
  if (!match) throw new Error(`not an amount: ${text}`);
  return BigInt(match[1]!) * STROOPS_PER_PI + BigInt((match[2] ?? '').padEnd(7, '0'));
}

/** A deterministic key pair for a name (a sandbox person's wallet). */
export function sandboxKeypair(seed: string): Keypair {
  return Keypair.fromRawEd25519Seed(createHash('sha256').update(`wallet:${seed}`).digest());
}

/** Which part of Horizon's view a path reads; null for a submission or an unknown path. */
export function partOf(path: string): HorizonPart | null {
  if (path.startsWith('/accounts/')) return 'accounts';
  if (path === '/ledgers') return 'ledgers';
  if (path.startsWith('/transactions/')) return 'transactions';
  return null;
}

export function wholeSecond(ms: number): number {
  return ms - (ms % 1000);
}

export function randomHash(): string {
  return randomBytes(32).toString('hex');
}
