import { ApiError } from '@teltlk/im-sdk';

const KEY = 'teltlk.pi.incomplete';

/**
 * Ids of payments Pi found unfinished while someone signed in, kept in session storage
 * until they are handed to the server. One the server answered for (kept, or refused as
 * not this person's) is done; one that could not reach it waits for the next sign-in.
 */
export class IncompletePayments {
  constructor(
    private readonly storage: () => Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
    private readonly report: (paymentId: string) => Promise<void>,
  ) {}

  remember(paymentId: string): void {
    this.write([...new Set([...this.read(), paymentId])]);
  }

  async handOver(): Promise<void> {
    const left: string[] = [];
    for (const id of this.read()) {
      await this.report(id).catch((failure: unknown) => {
        if (!(failure instanceof ApiError) || failure.code === 'NETWORK_ERROR') left.push(id);
      });
    }
    this.write(left);
  }

  read(): string[] {
    try {
      const value: unknown = JSON.parse(this.storage().getItem(KEY) ?? '[]');
      return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  }

  private write(ids: string[]): void {
    if (ids.length === 0) this.storage().removeItem(KEY);
    else this.storage().setItem(KEY, JSON.stringify(ids));
  }
}
