import argon2 from 'argon2';

export interface PasswordHashingOptions {
  /** KiB of memory per hash; argon2's default (64 MiB) unless a test asks for less. */
  memoryCost?: number;
  timeCost?: number;
}

/** argon2id hashing, with a dummy hash so unknown accounts take as long as known ones. */
export class PasswordHasher {
  private dummy: Promise<string> | null = null;

  constructor(private readonly options: PasswordHashingOptions = {}) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, ...this.options });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      // A malformed stored hash must not sign anyone in.
      return false;
    }
  }

  /** Spends the time of one verify without an account, so "no such account" is not faster. */
  async verifyDummy(password: string): Promise<void> {
    this.dummy ??= this.hash('not-a-real-password-0');
    await this.verify(await this.dummy, password);
  }
}
