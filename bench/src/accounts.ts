import { callApi as call, registerAccount as registerThroughApi } from '@teltlk/test-kit';

/**
 * Accounts of the benchmarks on the real server, made through its public REST API (the
 * test kit) from many client addresses, as many people would.
 */

export { call };

export interface Account {
  userId: string;
  token: string;
  email: string;
}

const PASSWORD = 'Bench0pass';

let addressCounter = 0;
/**
 * A distinct client address per registration: codes are limited per address and hour.
 * Only a header (the server runs with TRUST_PROXY); nothing is ever sent there.
 */
function nextAddress(): string {
  addressCounter += 1;
  const n = addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255 || 1}`;
}

let registered = 0;

export async function registerAccount(baseUrl: string): Promise<Account> {
  registered += 1;
  const account = await registerThroughApi(baseUrl, {
    nickname: `Bench ${registered}`,
    password: PASSWORD,
    country: 'CN',
    motherTongue: 'zh',
    address: nextAddress(),
  });
  return { userId: account.userId, token: account.token, email: account.email };
}

/** A new session of the account, as a new device gets by signing in: its token. */
export async function signInAgain(baseUrl: string, account: Account): Promise<string> {
  const { token } = await call<{ token: string }>(baseUrl, 'POST', '/auth/login', {
    body: { account: account.email, password: PASSWORD },
    address: nextAddress(),
  });
  return token;
}

/**
 * `count` accounts, a few at a time: each registration hashes a password (argon2id,
 * memory-hard), so more at once only queue in the server's thread pool.
 */
export async function registerAccounts(baseUrl: string, count: number): Promise<Account[]> {
  const accounts: Account[] = new Array<Account>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      accounts[index] = await registerAccount(baseUrl);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, count) }, worker));
  return accounts;
}

export { befriend } from '@teltlk/test-kit';
