/**
 * Accounts on the real server, made through its public REST API as a person would:
 * a registration code to an email address (read back from the development outbox),
 * then the account; friends by application and acceptance.
 */

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

export async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; address?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.address) headers['x-forwarded-for'] = options.address;
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

interface OutboxMessage {
  destination: string;
  purpose: string;
  code: string;
}

async function codeFor(baseUrl: string, destination: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { messages } = await call<{ messages: OutboxMessage[] }>(baseUrl, 'GET', '/dev/outbox');
    const found = messages.find((m) => m.destination === destination && m.purpose === 'register');
    if (found) return found.code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no register code for ${destination} in the outbox`);
}

let emailCounter = 0;

export async function registerAccount(baseUrl: string): Promise<Account> {
  emailCounter += 1;
  const destination = `bench${emailCounter}.${process.pid}@example.com`;
  const address = nextAddress();
  const channel = { channel: 'email', destination };
  await call(baseUrl, 'POST', '/auth/codes', {
    body: { purpose: 'register', ...channel },
    address,
  });
  const code = await codeFor(baseUrl, destination);
  const { ticket } = await call<{ ticket: string }>(baseUrl, 'POST', '/auth/codes/verify', {
    body: { purpose: 'register', ...channel, code },
    address,
  });
  const result = await call<{ token: string; user: { id: string } }>(
    baseUrl,
    'POST',
    '/auth/register',
    {
      body: {
        ticket,
        nickname: `Bench ${emailCounter}`,
        password: PASSWORD,
        country: 'CN',
        motherTongue: 'zh',
      },
      address,
    },
  );
  return { userId: result.user.id, token: result.token, email: destination };
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

export async function befriend(baseUrl: string, a: Account, b: Account): Promise<void> {
  const request = await call<{ id: string }>(baseUrl, 'POST', '/friend-requests', {
    body: { userId: b.userId },
    token: a.token,
  });
  await call(baseUrl, 'POST', `/friend-requests/${request.id}/accept`, { token: b.token });
}
