import { useQuery } from '@tanstack/react-query';
import { PiClient, type PiPayment, type PiScope } from '@teltlk/pi-sdk';
import { routes } from '@teltlk/client';
import type { PiConfig } from '@teltlk/protocol';
import { queryClient } from '../app/query-client';
import { api } from './client';
import { IncompletePayments } from './pi-incomplete';
import { queryKeys } from './query-keys';

/** What signing in with Pi asks for: who the person is, and payments for the wallet. */
export const PI_SIGN_IN_SCOPES: PiScope[] = ['username', 'payments'];

const piConfigQuery = {
  queryKey: queryKeys.piConfig(),
  queryFn: () => api.call(routes.pi.config),
  staleTime: Number.POSITIVE_INFINITY,
};

/** Whether Pi is on for this server, and where its SDK loads from; asked once. */
export function usePiConfig() {
  return useQuery(piConfigQuery);
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

/** The Pi client of this page outside React: the server's settings asked as usePiConfig does. */
export async function pagePiClient(): Promise<PiClient> {
  return piClientFor(await queryClient.ensureQueryData(piConfigQuery));
}

/** The server's Pi settings, and the Pi client for them once they are known. */
export function usePiClient() {
  const config = usePiConfig();
  return { config, client: config.data ? piClientFor(config.data) : null };
}

/**
 * The person's Pi access token, asking Pi for the sign-in scopes; unfinished payments Pi
 * finds on the way are remembered for handOverIncomplete.
 */
export async function piAccessToken(client: PiClient): Promise<string> {
  const { accessToken } = await client.authenticate(PI_SIGN_IN_SCOPES, rememberIncomplete);
  return accessToken;
}

/** Unfinished payments found at sign-in, on their way to the server. */
const incomplete = new IncompletePayments(
  () => sessionStorage,
  (paymentId) => api.call(routes.pi.resolveIncompletePayment, { body: { paymentId } }),
);

/**
 * A payment Pi found unfinished while the person signed in: kept until there is a session
 * to hand it to the server with (handOverIncomplete), which keeps it for the wallet.
 */
export function rememberIncomplete(payment: PiPayment): void {
  incomplete.remember(payment.identifier);
}

/** Hands the remembered unfinished payments to the server, now that someone is signed in. */
export function handOverIncomplete(): Promise<void> {
  return incomplete.handOver();
}
