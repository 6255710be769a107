import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { Settings, UpdateSettingsBody } from '@teltlk/protocol';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { toastModifyFailure } from '../../ui/failure-toast';
import { applyPatch, revertPatch } from './settings-patch';

/** Saves settings optimistically: the screen changes at once and rolls back on failure. */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  const key = queryKeys.settings();
  return useMutation({
    mutationFn: (patch: UpdateSettingsBody) =>
      api.call(routes.users.updateSettings, { body: patch }),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Settings>(key);
      if (previous) queryClient.setQueryData<Settings>(key, applyPatch(previous, patch));
      return { previous };
    },
    onError: (failure, patch, context) => {
      const previous = context?.previous;
      if (previous) {
        queryClient.setQueryData<Settings>(key, (current) =>
          current ? revertPatch(current, previous, patch) : previous,
        );
      }
      toastModifyFailure(failure);
    },
    onSuccess: (settings) => queryClient.setQueryData(key, settings),
  });
}
