import { useQueryClient } from '@tanstack/react-query';
import type { AuthResult } from '@teltlk/protocol';
import { useCallback } from 'react';
import { queryKeys } from '../../api/query-keys';
import { useAuthStore } from '../../app/auth-store';
import { setUiLanguage } from '../../i18n/index';

/** Starts a session from a sign-in or registration answer. */
export function useApplyAuth(): (result: AuthResult) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    async (result: AuthResult) => {
      // Signing in clears the cache (providers.tsx), so the answer is cached after it.
      useAuthStore.getState().signIn(result.token);
      queryClient.setQueryData(queryKeys.me(), result.user);
      queryClient.setQueryData(queryKeys.settings(), result.settings);
      // The interface language stored on the server follows the person to this device.
      await setUiLanguage(result.settings.uiLanguage);
    },
    [queryClient],
  );
}
