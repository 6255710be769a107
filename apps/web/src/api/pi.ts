import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { PiClient, type PiPayment, type PiScope } from '@teltlk/pi-sdk';
import type { PiConfig } from '@teltlk/protocol';
import { api } from './client';
import { queryKeys } from './query-keys';

/** What signing in with Pi asks for: who the person is, and payments for the wallet. */
export const PI_SIGN_IN_SCOPES: PiScope[] = ['username', 'payments'];

/** Whether Pi is on for this server, and where its SDK loads from; asked once. */
export function usePiConfig() {
  return useQuery({
    queryKey: queryKeys.piConfig(),
    queryFn: () => api.piConfig(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

let current: { key: string; client: PiClient } | null = null;

/** The one Pi client of this page for a configuration (the SDK is loaded once). */
export function piClientFor(config: PiConfig): PiClient {
  const key = JSON.stringify(config);
  if (current?.key !== key) {
    current = {
      key,
      client: new PiClient({
        sdkUrl: config.sdkUrl,
        sandbox: config.sandbox,
        sandboxHostUrl: config.sandboxHostUrl,
        win: window,
      }),
    };
  }
  return current.client;
}

/**
 * The person's Pi access token, asking Pi for the sign-in scopes; unfinished payments Pi
 * finds on the way are remembered for handOverIncomplete.
 */
export async function piAccessToken(client: PiClient): Promise<string> {
  const { accessToken } = await client.authenticate(PI_SIGN_IN_SCOPES, rememberIncomplete);
  return accessToken;
}

const INCOMPLETE_KEY = 'teltlk.pi.incomplete';

/**
 * A payment Pi found unfinished while the person signed in: kept until there is a session
 * to hand it to the server with (handOverIncomplete), which keeps it for the wallet.
 */
export function rememberIncomplete(payment: PiPayment): void {
  const ids = new Set(readIncomplete());
  ids.add(payment.identifier);
  sessionStorage.setItem(INCOMPLETE_KEY, JSON.stringify([...ids]));
}

function readIncomplete(): string[] {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(INCOMPLETE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Hands the remembered unfinished payments to the server, now that someone is signed in. */
export async function handOverIncomplete(): Promise<void> {
  const ids = readIncomplete();
  const left: string[] = [];
  for (const id of ids) {
    // Kept only while the server cannot be reached; an answer, even a refusal, settles it.
    await api.reportIncompletePiPayment(id).catch((failure: unknown) => {
      if (!(failure instanceof ApiError) || failure.code === 'NETWORK_ERROR') left.push(id);
    });
  }
  if (left.length === 0) sessionStorage.removeItem(INCOMPLETE_KEY);
  else sessionStorage.setItem(INCOMPLETE_KEY, JSON.stringify(left));
}
