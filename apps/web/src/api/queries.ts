import { useQuery } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import { useAuthStore } from '../app/auth-store';
import { api } from './client';
import { queryKeys } from './query-keys';

function useSignedIn(): boolean {
  return useAuthStore((state) => state.token !== null);
}

export function useMe() {
  return useQuery({
    queryKey: queryKeys.me(),
    queryFn: () => api.call(routes.users.me),
    enabled: useSignedIn(),
  });
}

export function useSettings() {
  return useQuery({
    queryKey: queryKeys.settings(),
    queryFn: () => api.call(routes.users.settings),
    enabled: useSignedIn(),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: queryKeys.sessions(),
    queryFn: () => api.call(routes.sessions.list),
    enabled: useSignedIn(),
  });
}

/** Country codes and dial codes; names come from Intl in the UI language. */
export function useCountryCodes() {
  return useQuery({
    queryKey: queryKeys.countries(),
    queryFn: () => api.call(routes.meta.countries),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/** The largest photo and file the server takes, checked before an upload begins. */
export function useMediaLimits() {
  return useQuery({
    queryKey: queryKeys.mediaLimits(),
    queryFn: () => api.call(routes.media.limits),
    enabled: useSignedIn(),
    staleTime: 60 * 60 * 1000,
  });
}
