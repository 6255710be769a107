import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@teltlk/im-sdk';
import { useAuthStore } from './auth-store';

/** The app's one query cache, for React (providers.tsx) and for code outside it. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx answer will not change on retry; network trouble might.
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
    mutations: { retry: false },
  },
});

// Whoever signs in or out, nothing cached for the previous session may show.
useAuthStore.subscribe((state, previous) => {
  if (state.token !== previous.token) queryClient.clear();
});
