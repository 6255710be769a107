import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { MiningStatus, RankingBoard } from '@teltlk/protocol';
import { useSignedIn } from '../app/guards';
import { api } from './client';

export const growthKeys = {
  all: () => ['me', 'growth'] as const,
  mining: () => ['me', 'growth', 'mining'] as const,
  coin: () => ['me', 'growth', 'coin'] as const,
  history: () => ['me', 'growth', 'coin', 'history'] as const,
  team: () => ['me', 'growth', 'team'] as const,
  members: () => ['me', 'growth', 'team', 'members'] as const,
  ranking: (board: RankingBoard, period: 'current' | 'previous') =>
    ['me', 'growth', 'ranking', board, period] as const,
};

/** My mining session, read again when it ends (the server settles it then). */
export function useMining() {
  return useQuery({
    queryKey: growthKeys.mining(),
    queryFn: () => api.call(routes.growth.mining),
    enabled: useSignedIn(),
    refetchInterval: (query) => {
      const data: MiningStatus | undefined = query.state.data;
      if (data?.state !== 'mining' || !data.session) return false;
      // Once more just after the end, then not until asked.
      const left = data.session.endsAt - data.serverNow;
      return left > 0 ? Math.min(left + 65_000, 2 ** 31 - 1) : false;
    },
  });
}

export function useCoin() {
  return useQuery({
    queryKey: growthKeys.coin(),
    queryFn: () => api.call(routes.growth.coin),
    enabled: useSignedIn(),
  });
}

export function useCoinHistory(pageSize = 20) {
  return useInfiniteQuery({
    queryKey: growthKeys.history(),
    queryFn: ({ pageParam }) =>
      api.call(routes.growth.coinHistory, {
        query: { cursor: pageParam ?? undefined, limit: pageSize },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    enabled: useSignedIn(),
  });
}

export function useTeam() {
  return useQuery({
    queryKey: growthKeys.team(),
    queryFn: () => api.call(routes.growth.team),
    enabled: useSignedIn(),
  });
}

export function useTeamMembers(pageSize = 20) {
  return useInfiniteQuery({
    queryKey: growthKeys.members(),
    queryFn: ({ pageParam }) =>
      api.call(routes.growth.members, {
        query: { cursor: pageParam ?? undefined, limit: pageSize },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    enabled: useSignedIn(),
  });
}

export function useRanking(board: RankingBoard, period: 'current' | 'previous') {
  return useQuery({
    queryKey: growthKeys.ranking(board, period),
    queryFn: () => api.call(routes.growth.ranking, { params: { board }, query: { period } }),
    enabled: useSignedIn(),
  });
}
