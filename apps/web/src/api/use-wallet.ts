import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { PaymentRecord } from '@teltlk/protocol';
import { api } from './client';
import { useSignedIn } from '../app/guards';

export const walletKeys = {
  all: () => ['me', 'wallet'] as const,
  wallet: () => ['me', 'wallet', 'summary'] as const,
  rules: () => ['me', 'wallet', 'rules'] as const,
  payments: (kind: PaymentRecord['kind'] | null) => ['me', 'wallet', 'payments', kind] as const,
  nfts: () => ['me', 'wallet', 'nfts'] as const,
  nft: (id: string) => ['me', 'wallet', 'nfts', id] as const,
};

export function useWallet() {
  return useQuery({
    queryKey: walletKeys.wallet(),
    queryFn: () => api.call(routes.wallet.wallet),
    enabled: useSignedIn(),
  });
}

export function useWalletRules() {
  return useQuery({
    queryKey: walletKeys.rules(),
    queryFn: () => api.call(routes.payments.rules),
    enabled: useSignedIn(),
  });
}

/** The NFT assets the person holds, newest first. */
export function useNfts() {
  return useQuery({
    queryKey: walletKeys.nfts(),
    queryFn: () => api.call(routes.nfts.held),
    enabled: useSignedIn(),
  });
}

/** The person's recharges and withdrawals, newest first, a page at a time. */
export function useWalletPayments(kind: PaymentRecord['kind'] | null, pageSize = 20) {
  return useInfiniteQuery({
    queryKey: [...walletKeys.payments(kind), pageSize],
    queryFn: ({ pageParam }) =>
      api.call(routes.payments.payments, {
        query: { kind: kind ?? undefined, cursor: pageParam ?? undefined, limit: pageSize },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    enabled: useSignedIn(),
  });
}

/** After money moved: balances, limits and records are read again. */
export function useWalletRefresh(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: walletKeys.all() });
}
